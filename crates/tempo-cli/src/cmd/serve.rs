//! `tempo serve`, `tempo user add`, `tempo backup`: the play server and
//! its store.

use std::io::BufRead;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use tempo_server::auth::{self, Role, User};
use tempo_server::store::Store;

use super::backups::{self, ScheduleArgs};
use super::settings::{AdminPassword, AdminPasswordArgs, CommandLine, Location, StoreArgs};
use super::store_lock::{Holder, StoreLock};

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "TEMPO_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    admin_password: AdminPasswordArgs,
    #[command(flatten)]
    backups: ScheduleArgs,
    /// Without the computer opponents (accounts bot-random, bot-greedy,
    /// bot-nash, bot-nash-strong, which accept every challenge).
    #[arg(long)]
    no_bots: bool,
}

#[derive(Debug, Args)]
pub(crate) struct UserArgs {
    #[command(subcommand)]
    command: UserCommand,
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Add an account; the password is the first line of standard input.
    Add {
        name: String,
        #[arg(long, default_value = "player", value_parser = ["player", "arbiter", "admin"])]
        role: String,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Debug, Args)]
pub(crate) struct BackupArgs {
    /// The data directory of the running (or stopped) SQLite store.
    #[arg(long, env = "TEMPO_DATA", default_value = "tempo-data")]
    data: PathBuf,
    /// The copy to write (must not exist).
    file: PathBuf,
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

pub(crate) fn serve(args: &ServeArgs, given: &CommandLine) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let location = args.store.location(given)?;
    let admin_password = args.admin_password.source(given)?;
    // Held until the process ends: one server per SQLite store.
    let _lock = match &location {
        Location::Sqlite(dir) => Some(StoreLock::acquire(dir, Holder::Serve)?),
        Location::Postgres(_) => None,
    };
    let backup_plan = args.backups.plan(&location)?;
    runtime()?.block_on(async {
        let store = location.open().await?;
        let first_admin = first_admin(&store, &admin_password).await?;
        let backup_notice = backup_plan.map(|plan| {
            let notice = format!(
                "tempo: backups every {} to {} (the newest {} kept)\n",
                plan.every_text(),
                plan.dir().display(),
                plan.keep()
            );
            backups::spawn(plan, store.clone());
            notice
        });
        let state = tempo_server::AppState::new(store).await?;
        if !args.no_bots {
            tempo_bots::start(&state, now_millis()).await?;
        }
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("--listen {}", args.listen))?;
        let address = listener.local_addr()?;
        tracing::info!(%address, "tempo serve");
        // What a person needs to begin, in one write; a reader that closed
        // standard output after the first line does not stop the server.
        let mut notice = format!("tempo: serving on http://{address}\n");
        if !args.no_bots {
            let names: Vec<_> = tempo_bots::BOTS.iter().map(|b| b.name).collect();
            notice.push_str(&format!(
                "tempo: computer opponents to challenge: {}\n",
                names.join(", ")
            ));
        }
        notice.push_str(backup_notice.as_deref().unwrap_or_default());
        if let Some(password) = first_admin {
            notice.push_str(&format!(
                "tempo: a new store: log in as admin with the password {password} \
                 (then add members and change the password under Account)\n"
            ));
        }
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(notice.as_bytes()).and_then(|()| out.flush());
        }
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        tempo_server::serve(listener, state, shutdown).await?;
        Ok(())
    })
}

/// On an empty store, an `admin` account so that the browser has someone
/// to log in as: its password from `TEMPO_ADMIN_PASSWORD` or its file (not
/// repeated on the console), else a random one shown once. What to print,
/// if anything.
async fn first_admin(store: &Store, source: &AdminPassword) -> anyhow::Result<Option<String>> {
    if store.user_count().await? > 0 {
        return Ok(None);
    }
    let (hash, shown) = match source.read()? {
        Some((password, setting)) => (
            auth::hash_password(&password).with_context(|| setting.clone())?,
            format!("from {setting}"),
        ),
        None => {
            const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
            let password: String = (0..16)
                .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
                .collect();
            (auth::hash_password(&password)?, password)
        }
    };
    let admin = User {
        name: "admin".into(),
        role: Role::Admin,
    };
    if !store.add_user(&admin, &hash, now_millis()).await? {
        // Another instance made it first.
        return Ok(None);
    }
    Ok(Some(shown))
}

fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub(crate) fn user(args: &UserArgs, given: &CommandLine) -> anyhow::Result<()> {
    let UserCommand::Add { name, role, store } = &args.command;
    auth::check_new_name(name)?;
    let role: Role = role.parse().map_err(anyhow::Error::msg)?;
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .context("reading the password from standard input")?;
    let password = password.trim_end_matches(['\n', '\r']);
    let hash = auth::hash_password(password)?;
    let location = store.location(given)?;
    runtime()?.block_on(async {
        let store = location.open().await?;
        let user = User {
            name: name.clone(),
            role,
        };
        if !store.add_user(&user, &hash, now_millis()).await? {
            anyhow::bail!("{}", auth::AccountError::Taken(name.clone()));
        }
        println!("added {} ({})", user.name, role.as_str());
        Ok(())
    })
}

pub(crate) fn backup(args: &BackupArgs) -> anyhow::Result<()> {
    if !args.data.join("tempo.sqlite").exists() {
        anyhow::bail!("--data {}: no tempo.sqlite there", args.data.display());
    }
    runtime()?.block_on(async {
        let store = Store::open_dir(&args.data).await?;
        store.backup_to(&args.file).await?;
        println!(
            "backed up {} to {}",
            args.data.display(),
            args.file.display()
        );
        Ok(())
    })
}
