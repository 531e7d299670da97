//! `tempo serve`, `tempo user add`, `tempo backup`: the play server and
//! its store.

use std::io::BufRead;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use tempo_server::auth::{self, Role, User};
use tempo_server::store::Store;

/// Where the server keeps its data.
#[derive(Debug, Args)]
pub(crate) struct StoreArgs {
    /// The data directory of the embedded SQLite store.
    #[arg(long, default_value = "tempo-data")]
    data: PathBuf,
    /// A PostgreSQL database instead (`postgres://user@host/db`).
    #[arg(long)]
    database: Option<String>,
}

impl StoreArgs {
    async fn open(&self) -> anyhow::Result<Store> {
        match &self.database {
            Some(url) => Store::connect(url)
                .await
                .with_context(|| format!("--database {}", redact(url))),
            None => Store::open_dir(&self.data)
                .await
                .with_context(|| format!("--data {}", self.data.display())),
        }
    }
}

/// A database URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_part = &url[scheme + 3..at];
            let user = user_part.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    #[command(flatten)]
    store: StoreArgs,
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
    #[arg(long, default_value = "tempo-data")]
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

pub(crate) fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    runtime()?.block_on(async {
        let store = args.store.open().await?;
        let first_admin = first_admin(&store).await?;
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
/// to log in as: its password from `TEMPO_ADMIN_PASSWORD` (not repeated on
/// the console), else a random one shown once. What to print, if anything.
async fn first_admin(store: &Store) -> anyhow::Result<Option<String>> {
    if store.user_count().await? > 0 {
        return Ok(None);
    }
    let (hash, shown) = match std::env::var("TEMPO_ADMIN_PASSWORD") {
        Ok(password) if !password.is_empty() => (
            auth::hash_password(&password).context("TEMPO_ADMIN_PASSWORD")?,
            "from TEMPO_ADMIN_PASSWORD".to_string(),
        ),
        _ => {
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

pub(crate) fn user(args: &UserArgs) -> anyhow::Result<()> {
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
    runtime()?.block_on(async {
        let store = store.open().await?;
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

#[cfg(test)]
mod tests {
    #[test]
    fn database_urls_lose_their_password_in_messages() {
        assert_eq!(
            super::redact("postgres://u:secret@h/db"),
            "postgres://u@h/db"
        );
        assert_eq!(super::redact("postgres://h/db"), "postgres://h/db");
    }
}
