//! `tempo arbiter clock-reset`: the clock correction after a
//! late-discovered illegal move (formulas (1)-(5) and the multi-period
//! form, see `tempo_clock::arbiter`).

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use tempo_clock::arbiter::{self, Correction, ExactTime};
use tempo_clock::{Millis, TimeControl};

/// Arbiter tools.
#[derive(Debug, Args)]
pub(crate) struct ArbiterArgs {
    #[command(subcommand)]
    pub command: ArbiterCommand,
}

/// The arbiter's commands.
#[derive(Debug, Subcommand)]
pub(crate) enum ArbiterCommand {
    /// Time to set on a clock after restoring the position before an
    /// illegal move discovered moves later. Prints `H:MM:SS` (nearest
    /// second, halves up) on the last line.
    ClockReset(ClockResetArgs),
}

/// Input of `tempo arbiter clock-reset`.
#[derive(Debug, Args)]
pub(crate) struct ClockResetArgs {
    /// Time control: PGN `TimeControl` (`5400+30`, `40/5400+30:1800+30`) or
    /// human form (`90m/40 + 30m + 30s`). Not needed with `--used`.
    #[arg(long)]
    pub control: Option<String>,
    /// The player's own completed moves when the illegal move was found.
    #[arg(long)]
    pub played: Option<u32>,
    /// The player's own legal moves (moves before the restored position).
    #[arg(long)]
    pub legal: Option<u32>,
    /// The clock's display (time left) at the discovery: `H:MM:SS`, `M:SS`
    /// or with units (`20m`, `90m30s`).
    #[arg(long, allow_hyphen_values = true)]
    pub displayed: Option<String>,
    /// Analogue clock: the used time it shows; applies formula (1) and
    /// prints the used time to set.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["displayed", "white", "black"])]
    pub used: Option<String>,
    /// White's `PLAYED,LEGAL,DISPLAYED` (e.g. `40,35,20:00`).
    #[arg(long, requires = "black", conflicts_with_all = ["played", "legal", "displayed"])]
    pub white: Option<String>,
    /// Black's `PLAYED,LEGAL,DISPLAYED`.
    #[arg(long, requires = "white")]
    pub black: Option<String>,
    /// Print the steps (2), (3), (4), `alloc` for several periods, and
    /// what (5) gives.
    #[arg(long)]
    pub explain: bool,
}

pub(crate) fn run(args: &ArbiterArgs) -> anyhow::Result<()> {
    match &args.command {
        ArbiterCommand::ClockReset(a) => clock_reset(a),
    }
}

fn parse_time(what: &str, text: &str) -> anyhow::Result<Millis> {
    text.parse::<Millis>().with_context(|| format!("--{what}"))
}

fn clock_reset(args: &ClockResetArgs) -> anyhow::Result<()> {
    if let Some(used) = &args.used {
        return analogue(args, used);
    }
    let control_text = args
        .control
        .as_deref()
        .context("--control is required (or --used for an analogue clock)")?;
    let control: TimeControl = control_text.parse().context("--control")?;
    if let (Some(white), Some(black)) = (&args.white, &args.black) {
        let players = [("white", white), ("black", black)];
        let mut results = Vec::new();
        for (name, text) in players {
            let (played, legal, displayed) = parse_triple(name, text)?;
            let c = arbiter::correct_control(&control, played, legal, displayed)
                .with_context(|| format!("--{name}"))?;
            results.push((name, c));
        }
        for (name, c) in &results {
            for w in &c.warnings {
                eprintln!("tempo: warning: {name}: {w}");
            }
            if args.explain {
                println!("{name}:");
                explain(&control, c, "  ");
            }
        }
        for (name, c) in &results {
            println!("{name} {}", c.set_display().hms());
        }
        return Ok(());
    }
    let played = args.played.context("--played is required")?;
    let legal = args.legal.context("--legal is required")?;
    let displayed = parse_time(
        "displayed",
        args.displayed
            .as_deref()
            .context("--displayed is required")?,
    )?;
    let c = arbiter::correct_control(&control, played, legal, displayed)?;
    for w in &c.warnings {
        eprintln!("tempo: warning: {w}");
    }
    if args.explain {
        explain(&control, &c, "");
    }
    println!("{}", c.set_display().hms());
    Ok(())
}

/// `PLAYED,LEGAL,DISPLAYED`.
fn parse_triple(name: &str, text: &str) -> anyhow::Result<(u32, u32, Millis)> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [played, legal, displayed] = parts.as_slice() else {
        bail!("--{name} `{text}`: expected PLAYED,LEGAL,DISPLAYED (e.g. 40,35,20:00)");
    };
    let count = |what: &str, t: &str| {
        t.parse::<u32>()
            .with_context(|| format!("--{name}: {what} `{t}` is not a whole number of moves"))
    };
    Ok((
        count("played", played)?,
        count("legal", legal)?,
        displayed
            .parse::<Millis>()
            .with_context(|| format!("--{name}"))?,
    ))
}

fn exact(t: ExactTime) -> String {
    t.millis().hms_exact()
}

fn explain(control: &TimeControl, c: &Correction, indent: &str) {
    let periods = control.periods().expect("correct_control accepted it");
    let several = periods.periods().len() > 1;
    let (p, l) = (c.played, c.legal);
    println!("{indent}control: {control} ({})", control.human());
    println!(
        "{indent}played {p}, legal {l}, displayed {}",
        c.displayed.hms_exact()
    );
    if p == 0 {
        println!("{indent}no move played: the clock stays as it is");
        return;
    }
    if several {
        for n in [p, l] {
            let increments: Millis = (1..=n).map(|m| periods.period_for_move(m).increment).sum();
            let bonuses = periods.alloc(n) - periods.initial() - increments;
            println!(
                "{indent}alloc({n}) = {} = base {} + period bonuses {} + increments {}",
                periods.alloc(n).hms_exact(),
                periods.initial().hms_exact(),
                bonuses.hms_exact(),
                increments.hms_exact()
            );
        }
        println!(
            "{indent}(2) used = alloc({p}) - displayed = {} - {} = {}",
            c.alloc_played.hms_exact(),
            c.displayed.hms_exact(),
            c.used.hms_exact()
        );
    } else {
        println!(
            "{indent}(2) used = initial + {p} × increment - displayed = {} - {} = {}",
            c.alloc_played.hms_exact(),
            c.displayed.hms_exact(),
            c.used.hms_exact()
        );
    }
    println!(
        "{indent}(3) legal used = {l}/{p} × used = {l}/{p} × {} = {}",
        c.used.hms_exact(),
        exact(c.legal_used)
    );
    let alloc_legal = if several {
        format!("alloc({l})")
    } else {
        format!("initial + {l} × increment")
    };
    println!(
        "{indent}(4) set = {alloc_legal} - legal used = {} - {} = {}",
        c.alloc_legal.hms_exact(),
        exact(c.legal_used),
        exact(c.set)
    );
    let agreement = if c.formula_5 == c.set {
        "the same as (4)".to_string()
    } else {
        format!(
            "differs from (4): a period bonus or increment change lies between move {l} and move {p}"
        )
    };
    println!(
        "{indent}(5) set = initial - {l}/{p} × (initial - displayed) = {} ({agreement})",
        exact(c.formula_5)
    );
    println!(
        "{indent}set {} (exact {}), shown to the nearest second, halves up",
        c.set_display().hms(),
        exact(c.set)
    );
}

/// Formula (1) for an analogue clock showing used time.
fn analogue(args: &ClockResetArgs, used_text: &str) -> anyhow::Result<()> {
    let played = args.played.context("--played is required")?;
    let legal = args.legal.context("--legal is required")?;
    let used = parse_time("used", used_text)?;
    let set = arbiter::formula_1(played, legal, used)?;
    if args.explain {
        println!(
            "(1) used time to set = {legal}/{played} × used = {legal}/{played} × {} = {}",
            used.hms_exact(),
            exact(set)
        );
    }
    println!("{}", set.display().hms());
    Ok(())
}
