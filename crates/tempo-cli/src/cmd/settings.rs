//! The server's settings from flags and the environment: where the store
//! is, and secrets read from files (`--database-url-file`,
//! `TEMPO_ADMIN_PASSWORD_FILE`), so that a password need not sit on a
//! command line (which `ps` shows) or in a unit file.
//!
//! A flag wins over the environment. A value and the file holding it,
//! given the same way (both flags, or both variables), are refused: which
//! one was meant is not for tempo to guess.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use clap::parser::{ArgMatches, ValueSource};
use tempo_server::mail::{MailSettings, SmtpUrl, check_email};
use tempo_server::store::Store;

/// Which arguments of the command being run were typed on its command
/// line (rather than taken from the environment or a default).
#[derive(Debug, Clone, Default)]
pub(crate) struct CommandLine {
    typed: Vec<String>,
}

impl CommandLine {
    /// The typed arguments of the innermost subcommand of `matches`.
    pub(crate) fn of(matches: &ArgMatches) -> CommandLine {
        let mut leaf = matches;
        while let Some((_, sub)) = leaf.subcommand() {
            leaf = sub;
        }
        let typed = leaf
            .ids()
            .filter(|id| leaf.value_source(id.as_str()) == Some(ValueSource::CommandLine))
            .map(|id| id.as_str().to_string())
            .collect();
        CommandLine { typed }
    }

    /// Whether the argument `id` (the field's name) was typed.
    fn has(&self, id: &str) -> bool {
        self.typed.iter().any(|typed| typed == id)
    }
}

/// Where the server keeps its data.
#[derive(Debug, Args)]
pub(crate) struct StoreArgs {
    /// The data directory of the embedded SQLite store.
    #[arg(long, env = "TEMPO_DATA", default_value = "tempo-data")]
    data: PathBuf,
    /// A PostgreSQL database instead (`postgres://user@host/db`).
    #[arg(long, env = "TEMPO_DATABASE_URL", hide_env_values = true)]
    database: Option<String>,
    /// The PostgreSQL URL read from FILE (one line), e.g. a secret
    /// mounted by systemd or a container runtime.
    #[arg(long, env = "TEMPO_DATABASE_URL_FILE", value_name = "FILE")]
    database_url_file: Option<PathBuf>,
}

/// The store a command works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Location {
    /// The SQLite store in this data directory.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(String),
}

impl StoreArgs {
    /// The store named by the flags and the environment.
    pub(crate) fn location(&self, given: &CommandLine) -> anyhow::Result<Location> {
        // An empty variable (`TEMPO_DATABASE_URL=` in an environment
        // file) is no setting.
        let url = self.database.as_deref().filter(|url| !url.is_empty());
        let file = self
            .database_url_file
            .as_deref()
            .filter(|file| !file.as_os_str().is_empty());
        let file_source = if given.has("database_url_file") {
            "--database-url-file"
        } else {
            "TEMPO_DATABASE_URL_FILE"
        };
        let url = match (url, file) {
            (None, None) => None,
            (Some(url), None) => Some(url.to_string()),
            (None, Some(file)) => Some(read_secret_file(file, file_source)?),
            (Some(url), Some(file)) => {
                match (given.has("database"), given.has("database_url_file")) {
                    (true, false) => Some(url.to_string()),
                    (false, true) => Some(read_secret_file(file, file_source)?),
                    (true, true) => {
                        anyhow::bail!("--database and --database-url-file: give one of them")
                    }
                    (false, false) => anyhow::bail!(
                        "TEMPO_DATABASE_URL and TEMPO_DATABASE_URL_FILE are both set: set one of them"
                    ),
                }
            }
        };
        match url {
            Some(url) => Ok(Location::Postgres(url)),
            None if self.data.as_os_str().is_empty() => {
                anyhow::bail!("--data (TEMPO_DATA) is empty: name the data directory")
            }
            None => Ok(Location::Sqlite(self.data.clone())),
        }
    }
}

impl Location {
    /// Opens (and if need be creates and migrates) the store.
    pub(crate) async fn open(&self) -> anyhow::Result<Store> {
        match self {
            Location::Postgres(url) => Store::connect(url)
                .await
                .with_context(|| format!("--database {}", redact(url))),
            Location::Sqlite(dir) => Store::open_dir(dir)
                .await
                .with_context(|| format!("--data {}", dir.display())),
        }
    }
}

/// The first admin's password, when `tempo serve` creates the account.
#[derive(Debug, Args)]
pub(crate) struct AdminPasswordArgs {
    /// On an empty store, the password of the `admin` account created,
    /// read from FILE (one line); or set TEMPO_ADMIN_PASSWORD. Without
    /// either, a random one is printed once.
    #[arg(long, env = "TEMPO_ADMIN_PASSWORD_FILE", value_name = "FILE")]
    admin_password_file: Option<PathBuf>,
}

/// Where the first admin's password comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AdminPassword {
    /// A random one, shown on the console.
    Random,
    /// `TEMPO_ADMIN_PASSWORD`.
    Variable(String),
    /// A file, named by the flag or variable (the first field).
    File(&'static str, PathBuf),
}

impl AdminPasswordArgs {
    /// The source of the password, checked now (both set is an error even
    /// on a store that has its admin already); the file is read only when
    /// the account is created.
    pub(crate) fn source(&self, given: &CommandLine) -> anyhow::Result<AdminPassword> {
        let variable = std::env::var("TEMPO_ADMIN_PASSWORD")
            .ok()
            .filter(|p| !p.is_empty());
        let file = self
            .admin_password_file
            .clone()
            .filter(|f| !f.as_os_str().is_empty());
        let typed = given.has("admin_password_file");
        let name = if typed {
            "--admin-password-file"
        } else {
            "TEMPO_ADMIN_PASSWORD_FILE"
        };
        match (variable, file) {
            (None, None) => Ok(AdminPassword::Random),
            (Some(password), None) => Ok(AdminPassword::Variable(password)),
            (None, Some(file)) => Ok(AdminPassword::File(name, file)),
            (Some(_), Some(file)) if typed => Ok(AdminPassword::File(name, file)),
            (Some(_), Some(_)) => anyhow::bail!(
                "TEMPO_ADMIN_PASSWORD and TEMPO_ADMIN_PASSWORD_FILE are both set: set one of them"
            ),
        }
    }
}

impl AdminPassword {
    /// The password and the setting it came from (for messages); `None`
    /// for a random one (the caller makes it).
    pub(crate) fn read(&self) -> anyhow::Result<Option<(String, String)>> {
        match self {
            AdminPassword::Random => Ok(None),
            AdminPassword::Variable(password) => {
                Ok(Some((password.clone(), "TEMPO_ADMIN_PASSWORD".to_string())))
            }
            AdminPassword::File(name, file) => Ok(Some((
                read_secret_file(file, name)?,
                format!("{name} {}", file.display()),
            ))),
        }
    }
}

/// Largest secret file read: a URL or a password is one short line.
const MAX_SECRET_BYTES: u64 = 64 * 1024;

/// The one line of a secret file, without its trailing newline (`\n` or
/// `\r\n`). Errors name the file and the setting (`source`) that named it.
pub(crate) fn read_secret_file(file: &Path, source: &str) -> anyhow::Result<String> {
    let context = || format!("{source} {}", file.display());
    let handle = std::fs::File::open(file).with_context(context)?;
    let mut bytes = Vec::new();
    handle
        .take(MAX_SECRET_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(context)?;
    if bytes.len() as u64 > MAX_SECRET_BYTES {
        anyhow::bail!(
            "{}: larger than {MAX_SECRET_BYTES} bytes (a secret file holds one line)",
            context()
        );
    }
    let text =
        String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{}: not UTF-8 text", context()))?;
    let line = text
        .strip_suffix('\n')
        .map_or(text.as_str(), |t| t.strip_suffix('\r').unwrap_or(t));
    if line.is_empty() {
        anyhow::bail!("{}: empty", context());
    }
    if line.contains(['\n', '\r']) {
        // Trailing blank lines would silently become part of the secret.
        anyhow::bail!(
            "{}: more than one line (a secret file holds one)",
            context()
        );
    }
    Ok(line.to_string())
}

/// A database URL without its password, for messages.
/// A duration of a setting: a whole number and one unit (`ms`, `s`, `m`,
/// `h`, `d`: `500ms`, `30s`, `6h`), within `least..=most` (the bounds as
/// `bounds` names them in the message).
pub(crate) fn parse_duration(
    text: &str,
    least: std::time::Duration,
    most: std::time::Duration,
    bounds: &str,
) -> Result<std::time::Duration, String> {
    const UNITS: &str = "ms, s, m, h or d, as in 6h";
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("{text:?}: a unit is missing ({UNITS})"))?;
    let (number, unit) = text.split_at(split);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{text:?}: a whole number and a unit ({UNITS})"))?;
    let millis_per_unit: u64 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(format!("{text:?}: the unit is {UNITS}")),
    };
    let duration = std::time::Duration::from_millis(number.saturating_mul(millis_per_unit));
    if duration < least || duration > most {
        return Err(format!("{text:?}: between {bounds}"));
    }
    Ok(duration)
}

pub(crate) fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_part = &url[scheme + 3..at];
            let user = user_part.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

/// E-mail for correspondence players (off without `--smtp`).
#[derive(Debug, Args)]
pub(crate) struct MailArgs {
    /// Send mails (challenges; in correspondence games your turn, a
    /// reminder 12 h before the deadline, the end) through this SMTP
    /// server: smtp://user:password@host:587 (STARTTLS),
    /// smtps://user:password@host (TLS, port 465) or
    /// smtp://127.0.0.1:25?tls=none (a relay on this host). Off without it.
    #[arg(long, env = "TEMPO_SMTP", value_name = "URL", hide_env_values = true)]
    smtp: Option<String>,
    /// The mails' sender address (with --smtp).
    #[arg(long, env = "TEMPO_SMTP_FROM", value_name = "ADDRESS")]
    smtp_from: Option<String>,
    /// The server's address as members reach it, for links in mails
    /// (https://chess.example.org) [default: the listen address].
    #[arg(long, env = "TEMPO_PUBLIC_URL", value_name = "URL")]
    public_url: Option<String>,
}

impl MailArgs {
    /// The mail settings, or `None` without `--smtp`; links lead to
    /// `--public-url`, else to `listening` (`http://127.0.0.1:8080`).
    pub(crate) fn settings(&self, listening: &str) -> anyhow::Result<Option<MailSettings>> {
        // An empty variable (`TEMPO_SMTP=` in an environment file) is no setting.
        let Some(url) = self.smtp.as_deref().filter(|url| !url.is_empty()) else {
            return Ok(None);
        };
        let smtp: SmtpUrl = url.parse().map_err(|e| anyhow::anyhow!("--smtp: {e}"))?;
        let from = self
            .smtp_from
            .as_deref()
            .filter(|from| !from.is_empty())
            .context("--smtp needs --smtp-from ADDRESS (TEMPO_SMTP_FROM), the mails' sender")?;
        check_email(from).map_err(|e| anyhow::anyhow!("--smtp-from: {e}"))?;
        let public_url = match self.public_url.as_deref().filter(|u| !u.is_empty()) {
            Some(url) if url.starts_with("https://") || url.starts_with("http://") => url,
            Some(url) => anyhow::bail!("--public-url {url}: an http:// or https:// URL"),
            None => listening,
        };
        Ok(Some(MailSettings {
            smtp,
            from: from.to_string(),
            public_url: public_url.trim_end_matches('/').to_string(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_urls_lose_their_password_in_messages() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u@h/db");
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
    }

    fn secret(content: &[u8]) -> anyhow::Result<String> {
        let file = std::env::temp_dir().join(format!(
            "tempo-secret-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::write(&file, content).unwrap();
        let read = read_secret_file(&file, "TEST_FILE");
        std::fs::remove_file(&file).unwrap();
        read
    }

    #[test]
    fn a_secret_file_loses_one_trailing_newline_only() {
        assert_eq!(secret(b"s3cret\n").unwrap(), "s3cret");
        assert_eq!(secret(b"s3cret\r\n").unwrap(), "s3cret");
        assert_eq!(secret(b"s3cret").unwrap(), "s3cret");
        assert_eq!(secret(b"  spaced  \n").unwrap(), "  spaced  ");
        let two = secret(b"s3cret\n\n").unwrap_err().to_string();
        assert!(two.contains("more than one line"), "{two}");
        let empty = secret(b"\n").unwrap_err().to_string();
        assert!(
            empty.contains("TEST_FILE") && empty.contains("empty"),
            "{empty}"
        );
        assert!(secret(&[0xff, 0xfe]).is_err());
        let big = secret(&vec![b'a'; MAX_SECRET_BYTES as usize + 1]).unwrap_err();
        assert!(big.to_string().contains("larger than"), "{big}");
    }

    #[test]
    fn a_missing_secret_file_is_named() {
        let err = read_secret_file(Path::new("/nonexistent/tempo-secret"), "--x-file").unwrap_err();
        assert!(
            format!("{err:#}").starts_with("--x-file /nonexistent/tempo-secret: "),
            "{err:#}"
        );
    }

    fn mail(smtp: Option<&str>, from: Option<&str>, public: Option<&str>) -> MailArgs {
        MailArgs {
            smtp: smtp.map(str::to_string),
            smtp_from: from.map(str::to_string),
            public_url: public.map(str::to_string),
        }
    }

    #[test]
    fn mail_is_off_without_smtp_and_needs_a_sender_with_it() {
        let here = "http://127.0.0.1:8080";
        assert!(
            mail(None, Some("club@example.org"), None)
                .settings(here)
                .unwrap()
                .is_none()
        );
        assert!(mail(Some(""), None, None).settings(here).unwrap().is_none());
        let no_from = mail(Some("smtp://mail.example.org"), None, None).settings(here);
        assert!(no_from.unwrap_err().to_string().contains("--smtp-from"));
        let bad = mail(Some("mail.example.org"), Some("club@example.org"), None).settings(here);
        assert!(bad.unwrap_err().to_string().contains("--smtp"));
        let settings = mail(
            Some("smtps://u:p@mail.example.org"),
            Some("club@example.org"),
            None,
        )
        .settings(here)
        .unwrap()
        .unwrap();
        assert_eq!(settings.public_url, here);
        assert_eq!(settings.smtp.port, 465);
        let settings = mail(
            Some("smtp://127.0.0.1?tls=none"),
            Some("club@example.org"),
            Some("https://chess.example.org/"),
        )
        .settings(here)
        .unwrap()
        .unwrap();
        assert_eq!(settings.public_url, "https://chess.example.org");
        let ftp = mail(Some("smtp://h?tls=none"), Some("a@b"), Some("ftp://x")).settings(here);
        assert!(ftp.is_err());
    }
}
