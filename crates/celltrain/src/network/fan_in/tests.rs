use super::*;
use celltrain_core::rng::RngStream;
use celltrain_core::EventQueue;

/// Against a sorted list: heads filed at random places, mostly last (as pipes at one rate
/// file them), some earlier, through the ring's wrap-around.
#[test]
fn the_ring_keeps_heads_in_order() {
    let mut rng = RngStream::derive(5, "ring");
    let mut queue: EventQueue<Event> = EventQueue::new();
    for pipes in [1usize, 2, 3, 8, 20] {
        let mut ring = HeadRing::new(pipes);
        let mut reference: Vec<(Place, u32)> = Vec::new();
        let mut now = 0;
        for step in 0..5_000u32 {
            let room = reference.len() < pipes;
            if room && (reference.is_empty() || rng.below(3) > 0) {
                // Mostly last (a pipe's next head), some anywhere, some first.
                let later = match rng.below(6) {
                    0 => rng.below(50),
                    1 => 0,
                    _ => 100 + rng.below(3),
                };
                let place = queue.reserve(SimTime::from_picos(now + later));
                let p = step;
                ring.insert(place, p);
                reference.push((place, p));
                reference.sort_unstable();
            } else {
                let head = ring.front().expect("a head");
                assert_eq!(head, reference.remove(0));
                ring.pop_front();
                now = head.0.time().as_picos();
            }
            assert_eq!(ring.len, reference.len());
            assert_eq!(ring.front(), reference.first().copied());
        }
    }
}
