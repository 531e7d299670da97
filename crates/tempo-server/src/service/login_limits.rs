//! Rate limits on password checks (logging in, changing a password): per
//! client address, every attempt; per account name, failed attempts.
//!
//! The per-account limit works as lichess's: it counts failures, and
//! while an account has none left an attempt on it is refused before any
//! hash is made — the right password too — so a guesser learns nothing
//! and costs nothing. Each failure is taken before the password is
//! checked (so parallel guesses cannot overrun it) and given back when
//! the password was right.
//!
//! So that guessing from strangers' addresses cannot keep an account's
//! owner out, the account remembers the networks (addresses grouped as
//! the per-address limit groups them) that logged in to it recently. A
//! known network counts its own failures on the account in a bucket of
//! its own, with the account's quota; every other network shares the
//! account's bucket. Guessing from unknown networks thus stays within the
//! account's quota, and only someone on a network the owner used — who
//! shares that network's bucket with the owner — can lock the owner out
//! there.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::accounts::SESSION_TTL;
use crate::domain::limits::{KeyedBuckets, Quota, RetryAfter};

/// The limits of password checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginQuotas {
    /// Attempts from one client address (an IPv6 client's /64).
    pub per_address: Quota,
    /// Failed attempts on one account name (known or not) from the
    /// networks not known to it, together; and, separately, from each
    /// network known to it.
    pub per_account: Quota,
}

impl Default for LoginQuotas {
    /// 60 attempts from an address at once, then one every 2 seconds; 10
    /// failures on an account, then one a minute.
    fn default() -> LoginQuotas {
        LoginQuotas {
            per_address: Quota {
                burst: 60,
                every: Duration::from_secs(2),
            },
            per_account: Quota {
                burst: 10,
                every: Duration::from_secs(60),
            },
        }
    }
}

/// Why an attempt is refused before its password is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limited {
    Address(RetryAfter),
    Account(RetryAfter),
}

/// An attempt admitted: a failure is taken from the bucket it counts in,
/// to be given back by [`LoginLimits::succeeded`] or
/// [`LoginLimits::not_checked`].
#[derive(Debug)]
#[must_use]
pub(crate) struct Attempt {
    account: String,
    network: IpAddr,
    /// Whether the failure was taken from the network's own bucket (a
    /// network known to the account), not the account's shared one.
    known: bool,
}

/// The state of the limits: one bucket per address, one per account name
/// (shared by the networks not known to it), and the networks known to
/// each account with a bucket each; every table of bounded size.
#[derive(Debug)]
pub struct LoginLimits {
    per_address: Mutex<KeyedBuckets<IpAddr>>,
    per_account: Mutex<KeyedBuckets<String>>,
    known: Mutex<KnownNetworks>,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits::new(LoginQuotas::default())
    }
}

/// Addresses, account names and accounts with known networks tracked at
/// most (each a few dozen bytes; an account's networks a few hundred).
const ROOM: usize = 100_000;

/// Longest account name kept as a key (real names are at most 32).
const NAME_KEY_BYTES: usize = 64;

/// Networks remembered per account: home, work, the club, a phone's
/// carrier and a few more; a login from a ninth forgets the one that
/// logged in least recently.
const KNOWN_PER_ACCOUNT: usize = 8;

/// How long a network stays known after its last login to the account:
/// longer than a browser session, so that logging in again when a session
/// has expired finds its network still known.
const KNOWN_FOR: Duration = SESSION_TTL.saturating_mul(2);

impl LoginLimits {
    pub fn new(quotas: LoginQuotas) -> LoginLimits {
        LoginLimits::with_room(quotas, ROOM)
    }

    fn with_room(quotas: LoginQuotas, room: usize) -> LoginLimits {
        LoginLimits {
            per_address: Mutex::new(KeyedBuckets::new(quotas.per_address, room)),
            per_account: Mutex::new(KeyedBuckets::new(quotas.per_account, room)),
            known: Mutex::new(KnownNetworks::new(quotas.per_account, room)),
        }
    }

    /// Admits a password check for `account` from `address`, or refuses it
    /// (the address's limit first: an attempt always counts there; then
    /// the bucket of the address's network if it is known to the account,
    /// else the account's shared bucket).
    pub(crate) fn attempt(&self, address: IpAddr, account: &str) -> Result<Attempt, Limited> {
        self.attempt_at(address, account, Instant::now())
    }

    fn attempt_at(&self, address: IpAddr, account: &str, now: Instant) -> Result<Attempt, Limited> {
        let network = address_key(address);
        self.per_address
            .lock()
            .expect("not poisoned")
            .take(&network, now)
            .map_err(Limited::Address)?;
        let account = account_key(account);
        let taken = self
            .known
            .lock()
            .expect("not poisoned")
            .take(&account, network, now);
        if let Some(taken) = taken {
            taken.map_err(Limited::Account)?;
            return Ok(Attempt {
                account,
                network,
                known: true,
            });
        }
        self.per_account
            .lock()
            .expect("not poisoned")
            .take(&account, now)
            .map_err(Limited::Account)?;
        Ok(Attempt {
            account,
            network,
            known: false,
        })
    }

    /// The password was right: the failure taken for `attempt` is given
    /// back, and its network is known to the account from now on.
    pub(crate) fn succeeded(&self, attempt: Attempt) {
        self.succeeded_at(attempt, Instant::now());
    }

    fn succeeded_at(&self, attempt: Attempt, now: Instant) {
        self.give_back(&attempt, now);
        self.known
            .lock()
            .expect("not poisoned")
            .learn(&attempt.account, attempt.network, now);
    }

    /// The password was never checked (the hashing failed): the failure
    /// taken for `attempt` is given back, and nothing is learnt.
    pub(crate) fn not_checked(&self, attempt: Attempt) {
        self.give_back(&attempt, Instant::now());
    }

    /// The password was wrong: the failure stays taken.
    pub(crate) fn failed(&self, attempt: Attempt) {
        drop(attempt);
    }

    fn give_back(&self, attempt: &Attempt, now: Instant) {
        if attempt.known {
            self.known.lock().expect("not poisoned").give_back(
                &attempt.account,
                attempt.network,
                now,
            );
        } else {
            self.per_account
                .lock()
                .expect("not poisoned")
                .give_back(&attempt.account, now);
        }
    }
}

/// A network that logged in to an account, and its own failures there.
#[derive(Debug, Clone, Copy)]
struct KnownNetwork {
    network: IpAddr,
    last_login: Instant,
    /// When its bucket of failures is full again (an instant past: full).
    full_at: Instant,
}

impl KnownNetwork {
    fn is_recent(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last_login) < KNOWN_FOR
    }
}

/// The networks known to each account: at most [`KNOWN_PER_ACCOUNT`] per
/// account, at most `room` accounts. Only a right password adds to it, so
/// a guesser cannot push the owner's networks out.
#[derive(Debug)]
struct KnownNetworks {
    quota: Quota,
    room: usize,
    accounts: HashMap<String, Vec<KnownNetwork>>,
}

impl KnownNetworks {
    fn new(quota: Quota, room: usize) -> KnownNetworks {
        KnownNetworks {
            quota,
            room: room.max(1),
            accounts: HashMap::new(),
        }
    }

    fn get_mut(
        &mut self,
        account: &str,
        network: IpAddr,
        now: Instant,
    ) -> Option<&mut KnownNetwork> {
        self.accounts
            .get_mut(account)?
            .iter_mut()
            .find(|known| known.network == network && known.is_recent(now))
    }

    /// Takes a failure from the bucket of `network` on `account`; `None`
    /// if the network is not known to the account.
    fn take(
        &mut self,
        account: &str,
        network: IpAddr,
        now: Instant,
    ) -> Option<Result<(), RetryAfter>> {
        let quota = self.quota;
        let known = self.get_mut(account, network, now)?;
        Some(quota.take(known.full_at, now).map(|full_at| {
            known.full_at = full_at;
        }))
    }

    fn give_back(&mut self, account: &str, network: IpAddr, now: Instant) {
        let quota = self.quota;
        if let Some(known) = self.get_mut(account, network, now) {
            known.full_at = quota.give_back(known.full_at, now);
        }
    }

    /// `network` logged in to `account` at `now`.
    fn learn(&mut self, account: &str, network: IpAddr, now: Instant) {
        if !self.accounts.contains_key(account) {
            self.make_room(now);
        }
        let networks = self.accounts.entry(account.to_string()).or_default();
        networks.retain(|known| known.is_recent(now));
        if let Some(known) = networks.iter_mut().find(|known| known.network == network) {
            known.last_login = now;
            return;
        }
        if networks.len() >= KNOWN_PER_ACCOUNT {
            let least_recent = (0..networks.len()).min_by_key(|&i| networks[i].last_login);
            if let Some(i) = least_recent {
                networks.swap_remove(i);
            }
        }
        networks.push(KnownNetwork {
            network,
            last_login: now,
            full_at: now,
        });
    }

    /// Room for one more account: the accounts whose networks are all
    /// forgotten go first, then the one whose last login is the oldest.
    fn make_room(&mut self, now: Instant) {
        if self.accounts.len() < self.room {
            return;
        }
        self.accounts
            .retain(|_, networks| networks.iter().any(|known| known.is_recent(now)));
        if self.accounts.len() < self.room {
            return;
        }
        let least_recent = self
            .accounts
            .iter()
            .min_by_key(|(_, networks)| networks.iter().map(|known| known.last_login).max())
            .map(|(account, _)| account.clone());
        if let Some(account) = least_recent {
            self.accounts.remove(&account);
        }
    }
}

/// The key of an address: IPv4 as it is (also written as IPv6), IPv6 by
/// its /64 (one subscriber's usual share, which they may vary at will).
fn address_key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// The key of an account name: names compare without case.
fn account_key(name: &str) -> String {
    let mut end = name.len().min(NAME_KEY_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Per address: `per_address` attempts, then one a minute; per
    /// account: 2 failures, then one a minute.
    fn quotas(per_address: u32) -> LoginQuotas {
        LoginQuotas {
            per_address: Quota {
                burst: per_address,
                every: Duration::from_secs(60),
            },
            per_account: Quota {
                burst: 2,
                every: Duration::from_secs(60),
            },
        }
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn is_account_limited(result: Result<Attempt, Limited>) -> bool {
        matches!(result, Err(Limited::Account(_)))
    }

    #[test]
    fn failures_from_unknown_addresses_lock_the_account_for_every_unknown_address() {
        let limits = LoginLimits::new(quotas(4));
        let (attacker, helper) = (ip("192.0.2.7"), ip("198.51.100.3"));
        // Right passwords from unknown addresses do not count.
        for _ in 0..3 {
            let attempt = limits.attempt(ip("10.0.0.1"), "Anna").unwrap();
            limits.not_checked(attempt);
        }
        for _ in 0..2 {
            let attempt = limits.attempt(attacker, "anna").unwrap();
            limits.failed(attempt);
        }
        assert!(is_account_limited(limits.attempt(attacker, "ANNA")));
        // Another unknown address gets no more guesses on the account.
        assert!(is_account_limited(limits.attempt(helper, "anna")));
        // Another account is not locked.
        limits.succeeded(limits.attempt(attacker, "ben").unwrap());
        // The attacker's address has used its four attempts (a refused one
        // counts too).
        assert!(matches!(
            limits.attempt(attacker, "carl"),
            Err(Limited::Address(_))
        ));
    }

    #[test]
    fn the_owner_is_checked_from_a_known_network_while_strangers_have_locked_the_account() {
        let limits = LoginLimits::new(quotas(100));
        let t0 = Instant::now();
        let home = ip("10.0.0.1");
        let phone = ip("2001:db8:1:2::5");
        limits.succeeded_at(limits.attempt_at(home, "anna", t0).unwrap(), t0);
        limits.succeeded_at(limits.attempt_at(phone, "anna", t0).unwrap(), t0);

        // Guesses from many unknown addresses: two failures in all, then
        // the account is locked for every unknown address.
        let mut checked = 0;
        for n in 0..50u8 {
            let attacker = IpAddr::from([192, 0, 2, n]);
            if let Ok(attempt) = limits.attempt_at(attacker, "anna", t0) {
                limits.failed(attempt);
                checked += 1;
            }
        }
        assert_eq!(checked, 2);
        let new_phone = ip("198.51.100.3");
        assert!(is_account_limited(limits.attempt_at(new_phone, "Anna", t0)));

        // The owner's networks are still checked: a typo and then the
        // right password from home, the right one from another address of
        // the phone's /64.
        let typo = limits.attempt_at(home, "Anna", t0).unwrap();
        limits.failed(typo);
        limits.succeeded_at(limits.attempt_at(home, "Anna", t0).unwrap(), t0);
        let same_64 = ip("2001:db8:1:2:aaaa::9");
        limits.succeeded_at(limits.attempt_at(same_64, "anna", t0).unwrap(), t0);

        // The shared bucket is as the strangers left it: one failure
        // comes back a minute later, for one more guess.
        assert!(is_account_limited(limits.attempt_at(new_phone, "anna", t0)));
        let minute = t0 + Duration::from_secs(60);
        limits.failed(limits.attempt_at(new_phone, "anna", minute).unwrap());
        assert!(is_account_limited(limits.attempt_at(
            IpAddr::from([192, 0, 2, 200]),
            "anna",
            minute
        )));
    }

    #[test]
    fn a_known_network_has_a_bucket_of_its_own() {
        let limits = LoginLimits::new(quotas(100));
        let t0 = Instant::now();
        let (home, stranger) = (ip("10.0.0.1"), ip("192.0.2.7"));
        limits.succeeded_at(limits.attempt_at(home, "anna", t0).unwrap(), t0);
        // Failures from home use up home's bucket only.
        for _ in 0..2 {
            limits.failed(limits.attempt_at(home, "anna", t0).unwrap());
        }
        let refused = limits.attempt_at(home, "anna", t0);
        assert!(
            matches!(refused, Err(Limited::Account(RetryAfter(wait))) if wait == Duration::from_secs(60)),
            "{refused:?}"
        );
        for _ in 0..2 {
            limits.failed(limits.attempt_at(stranger, "anna", t0).unwrap());
        }
        assert!(is_account_limited(limits.attempt_at(stranger, "anna", t0)));
        // A success gives back what it took, and an attempt not checked
        // too: no failure counts.
        let later = t0 + Duration::from_secs(60);
        for _ in 0..5 {
            limits.succeeded_at(limits.attempt_at(home, "anna", later).unwrap(), later);
            limits.not_checked(limits.attempt_at(home, "anna", later).unwrap());
        }
        // A network known to one account is unknown to another.
        for _ in 0..2 {
            limits.failed(limits.attempt_at(stranger, "ben", t0).unwrap());
        }
        assert!(is_account_limited(limits.attempt_at(home, "ben", t0)));
    }

    #[test]
    fn an_account_forgets_its_oldest_network_and_those_not_seen_for_long() {
        let limits = LoginLimits::new(quotas(100));
        let t0 = Instant::now();
        let network = |n: u8| IpAddr::from([10, 0, 0, n]);
        for n in 0..=KNOWN_PER_ACCOUNT as u8 {
            let at = t0 + Duration::from_secs(u64::from(n));
            limits.succeeded_at(limits.attempt_at(network(n), "anna", at).unwrap(), at);
        }
        let now = t0 + Duration::from_secs(100);
        for _ in 0..2 {
            limits.failed(limits.attempt_at(ip("192.0.2.7"), "anna", now).unwrap());
        }
        {
            let known = limits.known.lock().unwrap();
            assert_eq!(known.accounts["anna"].len(), KNOWN_PER_ACCOUNT);
        }
        // The first network went when the ninth logged in.
        assert!(is_account_limited(limits.attempt_at(
            network(0),
            "anna",
            now
        )));
        for n in 1..=KNOWN_PER_ACCOUNT as u8 {
            limits.not_checked(limits.attempt_at(network(n), "anna", now).unwrap());
        }
        // A network is forgotten KNOWN_FOR after its last login.
        let last = network(KNOWN_PER_ACCOUNT as u8);
        let last_login = t0 + Duration::from_secs(KNOWN_PER_ACCOUNT as u64);
        let nearly = last_login + KNOWN_FOR - Duration::from_secs(1);
        for _ in 0..2 {
            let stranger = limits.attempt_at(ip("192.0.2.8"), "anna", nearly);
            limits.failed(stranger.unwrap());
        }
        limits.not_checked(limits.attempt_at(last, "anna", nearly).unwrap());
        let forgotten = last_login + KNOWN_FOR;
        assert!(is_account_limited(
            limits.attempt_at(last, "anna", forgotten)
        ));
    }

    #[test]
    fn the_known_networks_stay_within_their_room() {
        let limits = LoginLimits::with_room(quotas(100_000), 50);
        let t0 = Instant::now();
        let count = |limits: &LoginLimits| {
            let known = limits.known.lock().unwrap();
            let most = known.accounts.values().map(Vec::len).max().unwrap_or(0);
            (known.accounts.len(), most)
        };
        for n in 0..2_000u32 {
            let at = t0 + Duration::from_millis(u64::from(n));
            let account = format!("member{n}");
            let address = IpAddr::from((n % 20).to_be_bytes());
            limits.succeeded_at(limits.attempt_at(address, &account, at).unwrap(), at);
            // One account logs in from ever new networks.
            let roamer = IpAddr::from([203, 0, (n >> 8) as u8, n as u8]);
            limits.succeeded_at(limits.attempt_at(roamer, "roamer", at).unwrap(), at);
            let (accounts, most) = count(&limits);
            assert!(accounts <= 50, "{accounts}");
            assert!(most <= KNOWN_PER_ACCOUNT, "{most}");
        }
        // The accounts that logged in most recently are kept.
        let known = limits.known.lock().unwrap();
        assert!(known.accounts.contains_key("member1999"));
        assert!(known.accounts.contains_key("roamer"));
        assert!(!known.accounts.contains_key("member0"));
        drop(known);
        // Accounts whose networks are all forgotten go first.
        let much_later = t0 + KNOWN_FOR + Duration::from_secs(10);
        limits.succeeded_at(
            limits
                .attempt_at(ip("10.1.1.1"), "late", much_later)
                .unwrap(),
            much_later,
        );
        assert_eq!(count(&limits).0, 1);
    }

    #[test]
    fn an_ipv6_client_is_limited_by_its_64() {
        let limits = LoginLimits::new(quotas(4));
        for n in 0..4 {
            let address = format!("2001:db8:1:2::{n:x}").parse().unwrap();
            limits.succeeded(limits.attempt(address, "anna").unwrap());
        }
        let same_64 = "2001:db8:1:2:ffff::1".parse().unwrap();
        assert!(matches!(
            limits.attempt(same_64, "anna"),
            Err(Limited::Address(_))
        ));
        let other_64 = "2001:db8:1:3::1".parse().unwrap();
        assert!(limits.attempt(other_64, "anna").is_ok());
        // An IPv4 address written as IPv6 is that IPv4 address.
        let mapped: IpAddr = "::ffff:192.0.2.9".parse().unwrap();
        assert_eq!(address_key(mapped), "192.0.2.9".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn long_names_are_cut_to_a_bounded_key() {
        let name = "é".repeat(1000);
        assert!(account_key(&name).len() <= NAME_KEY_BYTES);
        assert_eq!(account_key("AnNa"), "anna");
    }
}
