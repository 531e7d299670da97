//! The connections being served, and who gives way when there are too
//! many: a total cap (sized below the process's file limit, so that the
//! store and the logs always find a descriptor) and a cap per address (so
//! that one address cannot take every slot).
//!
//! At an address's cap, its oldest *idle* connection (no request in
//! progress: waiting for a request, or sending a request head) gives way
//! to the newcomer; with none idle, the newcomer is refused. At the total
//! cap, the address holding the most connections (more than the
//! newcomer's) gives up its oldest idle one; with none idle, and holding
//! at least two more than the newcomer's address, its oldest *busy* one
//! (a stream ends; its client may reconnect and then competes like
//! anyone). So a fresh address always gets in while any address holds two
//! or more connections: streams, which need no login and are busy for
//! ever, cannot fill the server for everyone else. The margin of two
//! keeps two addresses from taking streams from each other in turn: after
//! the move the holder still has at least as many as the newcomer's.
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use super::proxy::TrustedProxies;

/// The caps.
#[derive(Debug, Clone)]
pub(crate) struct Caps {
    pub total: usize,
    pub per_address: usize,
    /// Addresses without a cap of their own (trusted proxies: every client
    /// behind them shares their address).
    pub exempt: TrustedProxies,
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Its address holds its cap, all of them busy.
    AddressFull,
    /// The server holds its total cap, all of the largest holder's busy.
    ServerFull,
}

/// One connection's state, shared by its task, its I/O and its requests.
#[derive(Debug)]
pub(crate) struct Live {
    id: u64,
    pub ip: IpAddr,
    /// The address it counts under ([`holder`]).
    holder: IpAddr,
    epoch: Instant,
    /// Requests in progress (an answer in progress counts until its body
    /// has been sent or dropped).
    active: AtomicUsize,
    /// Whether a request has ever been begun on it.
    served: AtomicBool,
    /// Milliseconds since `epoch` when it last had nothing in progress.
    idle_since: AtomicU64,
    /// 1 + milliseconds since `epoch` when the first byte of a request
    /// head arrived while idle; 0: none arrived.
    head_started: AtomicU64,
    /// Wakes the connection's watchdog when its state changed.
    pub changed: Notify,
    /// Tells the connection to close (it gave way to a newcomer).
    pub evicted: Notify,
    /// Whether it was chosen while busy: it closes at once, its answers
    /// in progress (streams) cut, rather than after them.
    cut: AtomicBool,
    /// Tells whoever waits that the connection has closed (its slot dropped).
    pub closed: Notify,
}

/// The address a connection from `ip` counts under: an IPv4 address
/// itself, an IPv6 address's /64 (one host usually holds a whole /64, so
/// its single addresses would be as many caps).
pub(crate) fn holder(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// The timeouts a connection's watchdog applies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    /// From a new connection's start, or from the first byte of a request
    /// head, to the whole head.
    pub header: Duration,
    /// Between requests.
    pub idle: Duration,
}

impl Live {
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Whether no request is in progress.
    pub(crate) fn is_idle(&self) -> bool {
        self.active.load(SeqCst) == 0
    }

    /// Whether it gave way to a newcomer while busy, and so closes without
    /// waiting for its answers in progress.
    pub(crate) fn is_cut(&self) -> bool {
        self.cut.load(SeqCst)
    }

    /// Bytes arrived from the client.
    pub(crate) fn on_read(&self) {
        if self.is_idle() && self.head_started.load(SeqCst) == 0 {
            self.head_started.store(self.now_ms() + 1, SeqCst);
            self.changed.notify_one();
        }
    }

    /// A request begins; it is in progress until the guard drops.
    pub(crate) fn begin(self: &Arc<Self>) -> Active {
        self.active.fetch_add(1, SeqCst);
        self.served.store(true, SeqCst);
        self.head_started.store(0, SeqCst);
        self.changed.notify_one();
        Active(self.clone())
    }

    /// The instant (milliseconds since `epoch`) at which the connection is
    /// to close if nothing changes; `None` while a request is in progress.
    fn deadline(&self, timeouts: Timeouts) -> Option<u64> {
        if !self.is_idle() {
            return None;
        }
        let header = timeouts.header.as_millis() as u64;
        let started = self.head_started.load(SeqCst);
        if started != 0 {
            return Some(started - 1 + header);
        }
        let idle_since = self.idle_since.load(SeqCst);
        if self.served.load(SeqCst) {
            Some(idle_since + timeouts.idle.as_millis() as u64)
        } else {
            // A new connection's first request is due within the header
            // timeout: a client that connects and says nothing goes.
            Some(idle_since + header)
        }
    }

    /// Completes when the connection has been idle, or sending a request
    /// head, for longer than the timeouts allow.
    pub(crate) async fn expired(&self, timeouts: Timeouts) {
        loop {
            let changed = self.changed.notified();
            match self.deadline(timeouts) {
                Some(deadline) if deadline <= self.now_ms() => return,
                Some(deadline) => {
                    let at = self.epoch + Duration::from_millis(deadline);
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {}
                        () = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// A request in progress on a connection.
#[derive(Debug)]
pub(crate) struct Active(Arc<Live>);

impl Drop for Active {
    fn drop(&mut self) {
        let live = &self.0;
        if live.active.fetch_sub(1, SeqCst) == 1 {
            live.idle_since.store(live.now_ms(), SeqCst);
            live.head_started.store(0, SeqCst);
            live.changed.notify_one();
        }
    }
}

#[derive(Debug, Default)]
struct Held {
    /// Per address, its connections, oldest first.
    by_address: HashMap<IpAddr, Vec<Arc<Live>>>,
    total: usize,
    next_id: u64,
    /// Connections closed to make room, ever.
    evictions: u64,
}

impl Held {
    /// Closes the oldest idle connection of `ip`, if it has one.
    fn evict_oldest_idle(&mut self, ip: IpAddr) -> Option<Arc<Live>> {
        let index = self.by_address.get(&ip)?.iter().position(|l| l.is_idle())?;
        Some(self.evict(ip, index))
    }

    /// Closes the oldest connection of `ip`, busy or not, at once.
    fn evict_oldest(&mut self, ip: IpAddr) -> Option<Arc<Live>> {
        let oldest = self.by_address.get(&ip)?.first()?;
        oldest.cut.store(true, SeqCst);
        Some(self.evict(ip, 0))
    }

    fn evict(&mut self, ip: IpAddr, index: usize) -> Arc<Live> {
        let list = self.by_address.get_mut(&ip).expect("the address holds it");
        let live = list.remove(index);
        if list.is_empty() {
            self.by_address.remove(&ip);
        }
        self.total -= 1;
        self.evictions += 1;
        live.evicted.notify_one();
        live
    }

    fn count(&self, ip: IpAddr) -> usize {
        self.by_address.get(&ip).map_or(0, Vec::len)
    }
}

/// Every connection being served.
#[derive(Debug)]
pub(crate) struct Registry {
    caps: Caps,
    epoch: Instant,
    held: Mutex<Held>,
}

/// An admitted connection's place; dropping it frees the place.
#[derive(Debug)]
pub(crate) struct Slot {
    registry: Arc<Registry>,
    pub live: Arc<Live>,
}

/// An admitted connection, and the one told to close to make room for it
/// (whose descriptor is still open until its task ends).
#[derive(Debug)]
pub(crate) struct Admitted {
    pub slot: Slot,
    pub made_room: Option<Arc<Live>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.live.closed.notify_one();
        let mut held = self.registry.lock();
        let ip = self.live.holder;
        if let Some(list) = held.by_address.get_mut(&ip)
            && let Some(index) = list.iter().position(|l| l.id == self.live.id)
        {
            list.remove(index);
            if list.is_empty() {
                held.by_address.remove(&ip);
            }
            held.total -= 1;
        }
    }
}

impl Registry {
    pub(crate) fn new(caps: Caps) -> Arc<Registry> {
        Arc::new(Registry {
            caps,
            epoch: Instant::now(),
            held: Mutex::default(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic while holding the lock leaves consistent counts (every
        // change is one step), so a poisoned lock is still usable.
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Connections held now.
    pub(crate) fn total(&self) -> usize {
        self.lock().total
    }

    /// Connections closed to make room since the start.
    pub(crate) fn evictions(&self) -> u64 {
        self.lock().evictions
    }

    /// Admits a connection from `ip`, closing one to make room if a cap is
    /// reached (see the module's text for which), or refuses it.
    pub(crate) fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Admitted, Refusal> {
        let ip = holder(peer);
        let mut held = self.lock();
        let mut made_room = None;
        if !self.caps.exempt.contains(peer) && held.count(ip) >= self.caps.per_address {
            made_room = Some(held.evict_oldest_idle(ip).ok_or(Refusal::AddressFull)?);
        }
        if held.total >= self.caps.total {
            // The address with the most connections gives one up, unless
            // the newcomer's own address has as many.
            let own = held.count(ip);
            let (largest, holds) = held
                .by_address
                .iter()
                .map(|(address, list)| (*address, list.len()))
                .max_by_key(|(_, holds)| *holds)
                .unwrap_or((ip, 0));
            let victim = if holds > own { largest } else { ip };
            made_room = Some(
                held.evict_oldest_idle(victim)
                    .or_else(|| {
                        (holds >= own + 2)
                            .then(|| held.evict_oldest(largest))
                            .flatten()
                    })
                    .ok_or(Refusal::ServerFull)?,
            );
        }
        held.next_id += 1;
        let now = self.epoch.elapsed().as_millis() as u64;
        let live = Arc::new(Live {
            id: held.next_id,
            ip: peer,
            holder: ip,
            epoch: self.epoch,
            active: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            idle_since: AtomicU64::new(now),
            head_started: AtomicU64::new(0),
            changed: Notify::new(),
            evicted: Notify::new(),
            cut: AtomicBool::new(false),
            closed: Notify::new(),
        });
        held.by_address.entry(ip).or_default().push(live.clone());
        held.total += 1;
        Ok(Admitted {
            slot: Slot {
                registry: self.clone(),
                live,
            },
            made_room,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    fn registry(total: usize, per_address: usize) -> Arc<Registry> {
        Registry::new(Caps {
            total,
            per_address,
            exempt: TrustedProxies::default(),
        })
    }

    #[tokio::test]
    async fn an_address_at_its_cap_gives_up_its_oldest_idle_connection_or_is_refused() {
        let registry = registry(100, 3);
        let slots: Vec<Slot> = (0..3)
            .map(|_| registry.admit(ip(1)).unwrap().slot)
            .collect();
        // The oldest is busy: the second gives way.
        let _busy = slots[0].live.begin();
        let fourth = registry.admit(ip(1)).unwrap().slot;
        assert_eq!(registry.total(), 3);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), slots[1].live.evicted.notified())
                .await
                .is_ok(),
            "the oldest idle connection is told to close"
        );
        // All busy: the newcomer is refused; another address is not.
        let _busy = [slots[2].live.begin(), fourth.live.begin()];
        assert_eq!(registry.admit(ip(1)).unwrap_err(), Refusal::AddressFull);
        assert!(registry.admit(ip(2)).is_ok());
    }

    #[tokio::test]
    async fn a_full_server_takes_an_idle_connection_from_the_largest_holder() {
        let registry = registry(10, 8);
        let attacker: Vec<Slot> = (0..8)
            .map(|_| registry.admit(ip(1)).unwrap().slot)
            .collect();
        let others: Vec<Slot> = (0..2)
            .map(|_| registry.admit(ip(2)).unwrap().slot)
            .collect();
        assert_eq!(registry.total(), 10);
        let fresh = registry.admit(ip(3)).expect("a fresh address gets in");
        let victim = fresh.made_room.clone().expect("a connection made room");
        assert_eq!(victim.ip, ip(1));
        assert_eq!(registry.total(), 10);
        assert!(
            tokio::time::timeout(
                Duration::from_millis(50),
                attacker[0].live.evicted.notified()
            )
            .await
            .is_ok()
        );
        // Dropping the evicted slot later does not free a second place.
        drop(attacker);
        assert_eq!(registry.total(), 3);
        drop((others, fresh));
        assert_eq!(registry.total(), 0);
    }

    #[tokio::test]
    async fn a_full_server_of_busy_connections_cuts_the_largest_holders_oldest() {
        let registry = registry(10, 8);
        let streams: Vec<Slot> = (0..6)
            .map(|_| registry.admit(ip(1)).unwrap().slot)
            .collect();
        let others: Vec<Slot> = (0..4)
            .map(|_| registry.admit(ip(2)).unwrap().slot)
            .collect();
        let _busy: Vec<Active> = streams
            .iter()
            .chain(&others)
            .map(|s| s.live.begin())
            .collect();
        let fresh = registry.admit(ip(3)).expect("a fresh address gets in");
        let victim = fresh.made_room.expect("a busy connection made room");
        assert_eq!(victim.id, streams[0].live.id, "the oldest of the largest");
        assert!(victim.is_cut() && !victim.is_idle());
        assert!(
            tokio::time::timeout(
                Duration::from_millis(50),
                streams[0].live.evicted.notified()
            )
            .await
            .is_ok()
        );
        assert_eq!(registry.total(), 10);
        // Five against four: taking one would only swap the two.
        assert_eq!(registry.admit(ip(2)).unwrap_err(), Refusal::ServerFull);
        // Another fresh address: the largest's next oldest.
        let next = registry.admit(ip(4)).unwrap();
        assert_eq!(next.made_room.unwrap().id, streams[1].live.id);
        assert!(others.iter().all(|s| !s.live.is_cut()));
        // Four each for 1 and 2: still room for a fresh address.
        let third = registry.admit(ip(5)).unwrap();
        let cut = third.made_room.unwrap();
        assert!(cut.is_cut() && [ip(1), ip(2)].contains(&cut.ip));
        assert_eq!(registry.total(), 10);
    }

    #[tokio::test]
    async fn an_idle_connection_gives_way_before_a_busy_one() {
        let registry = registry(4, 4);
        let slots: Vec<Slot> = (0..3)
            .map(|_| registry.admit(ip(1)).unwrap().slot)
            .collect();
        let _other = registry.admit(ip(2)).unwrap().slot;
        let _busy = [slots[0].live.begin(), slots[2].live.begin()];
        let victim = registry.admit(ip(3)).unwrap().made_room.unwrap();
        assert_eq!(victim.id, slots[1].live.id);
        assert!(!victim.is_cut(), "an idle connection is not cut");
    }

    #[tokio::test]
    async fn a_full_server_of_one_busy_connection_per_address_refuses_newcomers() {
        let registry = registry(4, 4);
        let slots: Vec<Slot> = (0..4)
            .map(|n| registry.admit(ip(n)).unwrap().slot)
            .collect();
        let _busy: Vec<Active> = slots.iter().map(|s| s.live.begin()).collect();
        assert_eq!(registry.admit(ip(9)).unwrap_err(), Refusal::ServerFull);
    }

    #[tokio::test]
    async fn a_newcomer_with_as_many_as_anyone_takes_from_itself() {
        let registry = registry(4, 4);
        let a: Vec<Slot> = (0..2)
            .map(|_| registry.admit(ip(1)).unwrap().slot)
            .collect();
        let b: Vec<Slot> = (0..2)
            .map(|_| registry.admit(ip(2)).unwrap().slot)
            .collect();
        let _busy_a = a[0].live.begin();
        registry
            .admit(ip(1))
            .expect("its own idle connection gives way");
        assert!(
            tokio::time::timeout(Duration::from_millis(50), a[1].live.evicted.notified())
                .await
                .is_ok()
        );
        assert!(
            tokio::time::timeout(Duration::from_millis(20), b[0].live.evicted.notified())
                .await
                .is_err(),
            "the other address keeps its connections"
        );
    }

    #[tokio::test]
    async fn an_ipv6_host_counts_as_its_64() {
        let registry = registry(100, 2);
        let v6 = |text: &str| text.parse::<IpAddr>().unwrap();
        let a = registry.admit(v6("2001:db8:1:2::1")).unwrap();
        let b = registry.admit(v6("2001:db8:1:2:ffff::9")).unwrap();
        let busy = [a.slot.live.begin(), b.slot.live.begin()];
        assert_eq!(
            registry.admit(v6("2001:db8:1:2::77")).unwrap_err(),
            Refusal::AddressFull
        );
        assert!(registry.admit(v6("2001:db8:1:3::1")).is_ok());
        drop(busy);
        assert_eq!(holder(v6("::ffff:10.0.0.1")), ip(1));
    }

    #[tokio::test(start_paused = true)]
    async fn watchdog_closes_silent_slow_and_idle_connections() {
        let timeouts = Timeouts {
            header: Duration::from_secs(10),
            idle: Duration::from_secs(30),
        };
        let registry = registry(10, 10);
        let slot = registry.admit(ip(1)).unwrap().slot;
        let live = slot.live.clone();
        // A request in progress never expires.
        let request = live.begin();
        assert!(
            tokio::time::timeout(Duration::from_secs(100), live.expired(timeouts))
                .await
                .is_err()
        );
        drop(request);
        // Idle after an answer: the idle timeout.
        let started = tokio::time::Instant::now();
        live.expired(timeouts).await;
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_secs(29) && waited <= Duration::from_secs(31),
            "{waited:?}"
        );
        // A head begun: the header timeout from its first byte.
        live.on_read();
        let started = tokio::time::Instant::now();
        live.expired(timeouts).await;
        assert!(started.elapsed() <= Duration::from_secs(11));
    }
}
