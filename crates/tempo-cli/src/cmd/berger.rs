//! `tempo berger N [--double]`: the round-robin pairings of FIDE's Berger
//! tables. Prints a header, then `round<TAB>board<TAB>white<TAB>black`, a
//! bye as black `0` (on board 1, where the table has the dummy's game).

use std::fmt::Write as _;

use clap::Args;
use tempo_tourney::roundrobin::schedule;

/// Print every round of a round robin for N players (Berger tables).
#[derive(Debug, Args)]
pub(crate) struct BergerArgs {
    /// Number of players (at least 2); an odd number gives one bye per round.
    #[arg(value_name = "N")]
    pub players: u32,
    /// Double round robin: the cycle again with colours reversed (the last
    /// two rounds of the first cycle swapped, as FIDE C.05 recommends).
    #[arg(long)]
    pub double: bool,
}

pub(crate) fn run(args: &BergerArgs) -> anyhow::Result<()> {
    print!("{}", render(args)?);
    Ok(())
}

fn render(args: &BergerArgs) -> anyhow::Result<String> {
    if args.players < 2 {
        anyhow::bail!(
            "a round robin needs at least 2 players, not {}",
            args.players
        );
    }
    if args.players > 9999 {
        anyhow::bail!("at most 9999 players (TRF's limit), not {}", args.players);
    }
    let mut out = String::from("round\tboard\twhite\tblack\n");
    for (r, round) in schedule(args.players, args.double).iter().enumerate() {
        for (b, p) in round.iter().enumerate() {
            let _ = writeln!(
                out,
                "{}\t{}\t{}\t{}",
                r + 1,
                b + 1,
                p.white,
                p.black.unwrap_or(0)
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players() {
        let text = render(&BergerArgs {
            players: 4,
            double: false,
        })
        .unwrap();
        assert_eq!(
            text,
            "round\tboard\twhite\tblack\n1\t1\t1\t4\n1\t2\t2\t3\n2\t1\t4\t3\n2\t2\t1\t2\n3\t1\t2\t4\n3\t2\t3\t1\n"
        );
    }

    #[test]
    fn odd_gives_byes_as_black_zero() {
        let text = render(&BergerArgs {
            players: 3,
            double: false,
        })
        .unwrap();
        assert!(text.contains("1\t1\t1\t0\n1\t2\t2\t3\n"), "{text}");
        // Round 2 of the 4-table is 4-3, 1-2: the dummy 4 had White.
        assert!(text.contains("2\t1\t3\t0\n2\t2\t1\t2\n"), "{text}");
        assert!(
            render(&BergerArgs {
                players: 1,
                double: false
            })
            .is_err()
        );
    }
}
