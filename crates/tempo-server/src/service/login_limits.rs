//! Rate limits on password checks (logging in, changing a password): per
//! client address, every attempt; per account name, failed attempts.
//!
//! The per-account limit works as lichess's: it counts failures, and
//! while an account has none left every attempt on it — the right
//! password too — is refused before any hash is made, so a guesser
//! learns nothing and costs nothing. Each failure is taken before the
//! password is checked (so parallel guesses cannot overrun it) and given
//! back when the password was right.

use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::limits::{KeyedBuckets, Quota, RetryAfter};

/// The limits of password checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginQuotas {
    /// Attempts from one client address (an IPv6 client's /64).
    pub per_address: Quota,
    /// Failed attempts on one account name (known or not).
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

/// An attempt admitted: its account's failure is taken, to be given back
/// by [`LoginLimits::succeeded`] if the password is right.
#[derive(Debug)]
#[must_use]
pub(crate) struct Attempt {
    account: String,
}

/// The state of the limits: one bucket per address and per account name,
/// each table of bounded size.
#[derive(Debug)]
pub struct LoginLimits {
    per_address: Mutex<KeyedBuckets<IpAddr>>,
    per_account: Mutex<KeyedBuckets<String>>,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits::new(LoginQuotas::default())
    }
}

/// Addresses and account names tracked at most (each a few dozen bytes).
const ROOM: usize = 100_000;

/// Longest account name kept as a key (real names are at most 32).
const NAME_KEY_BYTES: usize = 64;

impl LoginLimits {
    pub fn new(quotas: LoginQuotas) -> LoginLimits {
        LoginLimits {
            per_address: Mutex::new(KeyedBuckets::new(quotas.per_address, ROOM)),
            per_account: Mutex::new(KeyedBuckets::new(quotas.per_account, ROOM)),
        }
    }

    /// Admits a password check for `account` from `address`, or refuses it
    /// (the address's limit first: an attempt always counts there).
    pub(crate) fn attempt(&self, address: IpAddr, account: &str) -> Result<Attempt, Limited> {
        let now = Instant::now();
        self.per_address
            .lock()
            .expect("not poisoned")
            .take(&address_key(address), now)
            .map_err(Limited::Address)?;
        let account = account_key(account);
        self.per_account
            .lock()
            .expect("not poisoned")
            .take(&account, now)
            .map_err(Limited::Account)?;
        Ok(Attempt { account })
    }

    /// The password was right (or never checked): the failure taken for
    /// `attempt` is given back.
    pub(crate) fn succeeded(&self, attempt: Attempt) {
        self.per_account
            .lock()
            .expect("not poisoned")
            .give_back(&attempt.account, Instant::now());
    }

    /// The password was wrong: the failure stays taken.
    pub(crate) fn failed(&self, attempt: Attempt) {
        drop(attempt);
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

    fn quotas() -> LoginQuotas {
        LoginQuotas {
            per_address: Quota {
                burst: 4,
                every: Duration::from_secs(60),
            },
            per_account: Quota {
                burst: 2,
                every: Duration::from_secs(60),
            },
        }
    }

    #[test]
    fn failures_lock_the_account_from_every_address_but_successes_do_not_count() {
        let limits = LoginLimits::new(quotas());
        let (home, attacker) = ("10.0.0.1".parse().unwrap(), "192.0.2.7".parse().unwrap());
        for _ in 0..3 {
            let attempt = limits.attempt(home, "Anna").unwrap();
            limits.succeeded(attempt);
        }
        for _ in 0..2 {
            let attempt = limits.attempt(attacker, "anna").unwrap();
            limits.failed(attempt);
        }
        assert!(matches!(
            limits.attempt(attacker, "ANNA"),
            Err(Limited::Account(_))
        ));
        assert!(matches!(
            limits.attempt(home, "anna"),
            Err(Limited::Account(_))
        ));
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
    fn an_ipv6_client_is_limited_by_its_64() {
        let limits = LoginLimits::new(quotas());
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
