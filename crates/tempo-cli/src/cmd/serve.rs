//! `tempo serve`, `tempo user add`, `tempo backup`: the play server and
//! its store.

use std::io::BufRead;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use tempo_server::auth::{self, Role, User};
use tempo_server::store::Store;

use super::backups::{self, ScheduleArgs};
use super::settings::{
    AdminPassword, AdminPasswordArgs, CommandLine, Location, MailArgs, StoreArgs,
};
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
    #[command(flatten)]
    net: NetArgs,
    #[command(flatten)]
    mail: MailArgs,
}

/// The connection layer: caps, trusted proxies, TLS.
#[derive(Debug, Args)]
pub(crate) struct NetArgs {
    /// Most connections at once [default: the file limit less an eighth
    /// for the store, e.g. 896 at 1,024 files].
    #[arg(long, env = "TEMPO_MAX_CONNECTIONS", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: Option<u32>,
    /// Most connections from one address [default: a quarter of
    /// --max-connections]; trusted proxies have no such cap.
    #[arg(long, env = "TEMPO_MAX_PER_ADDRESS", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_per_address: Option<u32>,
    /// A reverse proxy in front of the server (an address, or a network
    /// like 10.0.0.0/8; repeatable): only from it are X-Forwarded-For and
    /// X-Forwarded-Proto believed. In the environment, a comma-separated
    /// list.
    #[arg(
        long = "trusted-proxy",
        env = "TEMPO_TRUSTED_PROXY",
        value_delimiter = ',',
        value_name = "IP"
    )]
    trusted_proxies: Vec<tempo_server::net::TrustedProxy>,
    /// Serve HTTPS with this certificate chain (PEM); with --tls-key.
    #[arg(long, env = "TEMPO_TLS_CERT", value_name = "FILE")]
    tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM); with --tls-cert.
    #[arg(long, env = "TEMPO_TLS_KEY", value_name = "FILE")]
    tls_key: Option<PathBuf>,
    /// How long a request head may take (and a new connection's first).
    #[arg(long, hide = true, value_name = "DURATION", value_parser = parse_duration, default_value = "10s")]
    header_timeout: std::time::Duration,
    /// How long a connection may stay idle between requests.
    #[arg(long, hide = true, value_name = "DURATION", value_parser = parse_duration, default_value = "30s")]
    idle_timeout: std::time::Duration,
}

impl NetArgs {
    /// The server's connection options; the TLS files are read and checked.
    fn options(&self) -> anyhow::Result<tempo_server::net::NetOptions> {
        use tempo_server::net;
        let tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some(
                net::Tls::from_pem_files(cert, key)
                    .map_err(|e| anyhow::anyhow!("--tls-cert/--tls-key: {e}"))?,
            ),
            (None, None) => None,
            (Some(_), None) => anyhow::bail!("--tls-cert needs --tls-key FILE (its private key)"),
            (None, Some(_)) => anyhow::bail!("--tls-key needs --tls-cert FILE (its certificate)"),
        };
        let max_connections = self
            .max_connections
            .map_or_else(net::default_max_connections, |n| n as usize);
        Ok(net::NetOptions {
            max_connections,
            max_per_address: self.max_per_address.map_or_else(
                || net::default_max_per_address(max_connections),
                |n| n as usize,
            ),
            header_timeout: self.header_timeout,
            idle_timeout: self.idle_timeout,
            trusted_proxies: self.trusted_proxies.clone(),
            tls,
        })
    }
}

/// `10s`, `500ms`, `2m`: between 100 ms and an hour.
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    use std::time::Duration;
    super::settings::parse_duration(
        text,
        Duration::from_millis(100),
        Duration::from_secs(3_600),
        "100ms and 60m",
    )
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
    let options = args.net.options()?;
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
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("--listen {}", args.listen))?;
        let address = listener.local_addr()?;
        let scheme = if options.tls.is_some() {
            "https"
        } else {
            "http"
        };
        let mail = args.mail.settings(&format!("{scheme}://{address}"))?;
        let mut state = tempo_server::AppState::new(store).await?;
        let mail_notice = match mail {
            Some(mail) => {
                let notice = format!(
                    "tempo: mails through {}:{} from {}, links to {}\n",
                    mail.smtp.host, mail.smtp.port, mail.from, mail.public_url
                );
                state = state.with_mail(mail).context("--smtp")?;
                notice
            }
            None => String::new(),
        };
        if !args.no_bots {
            tempo_bots::start(&state, now_millis()).await?;
        }
        tracing::info!(%address, "tempo serve");
        // What a person needs to begin, in one write; a reader that closed
        // standard output after the first line does not stop the server.
        let mut notice = format!("tempo: serving on {scheme}://{address}\n");
        notice.push_str(&mail_notice);
        if !args.no_bots {
            let names: Vec<_> = tempo_bots::BOTS
                .iter()
                .map(|b| format!("{} ({})", b.name, b.level))
                .collect();
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
        tempo_server::serve_with(listener, state, options, shutdown).await?;
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

#[cfg(test)]
mod tests {
    #[test]
    fn durations_read_with_their_units_and_bounds() {
        use std::time::Duration;
        assert_eq!(super::parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(
            super::parse_duration("500ms"),
            Ok(Duration::from_millis(500))
        );
        assert_eq!(super::parse_duration("2m"), Ok(Duration::from_secs(120)));
        for bad in ["", "2", "s", "10h", "50ms", "61m", "-1s"] {
            assert!(super::parse_duration(bad).is_err(), "{bad}");
        }
    }
}
