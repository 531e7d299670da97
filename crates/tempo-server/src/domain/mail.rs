//! E-mail for correspondence players: a member's address and language,
//! the SMTP server's URL, and the texts of the mails (German, English,
//! or both when the member's language is not known). Pure: sending is
//! the service's.

use std::fmt::Write as _;

/// Longest address taken (RFC 5321 limits a path to 256 octets with its
/// brackets).
pub const MAX_EMAIL: usize = 254;

/// Why an address or an SMTP setting is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MailError {
    #[error("email: 3 to {MAX_EMAIL} characters with one '@', no spaces or control characters")]
    BadAddress,
    #[error("lang: de or en")]
    BadLang,
    #[error("SMTP URL: {0}")]
    BadUrl(String),
}

/// Checks a member's address: its length, one `@` with something on
/// each side, no spaces, control characters or the brackets and commas
/// that would let it name a second recipient in a header.
pub fn check_email(email: &str) -> Result<(), MailError> {
    let ok = (3..=MAX_EMAIL).contains(&email.len())
        && email.matches('@').count() == 1
        && !email.starts_with('@')
        && !email.ends_with('@')
        && !email
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"\\()[]".contains(c));
    if ok {
        Ok(())
    } else {
        Err(MailError::BadAddress)
    }
}

/// The language of a member's mails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    De,
    En,
}

impl Lang {
    pub fn parse(text: &str) -> Result<Lang, MailError> {
        match text {
            "de" => Ok(Lang::De),
            "en" => Ok(Lang::En),
            _ => Err(MailError::BadLang),
        }
    }

    pub fn as_str(self) -> &'static str {
        self.pick("de", "en")
    }

    /// `de` or `en`, whichever is this language's.
    fn pick<T>(self, de: T, en: T) -> T {
        match self {
            Lang::De => de,
            Lang::En => en,
        }
    }
}

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (`smtps://`, port 465).
    Tls,
    /// Plain first, then `STARTTLS`, which the server must offer
    /// (`smtp://`, port 587).
    StartTls,
    /// No encryption (`smtp://…?tls=none`, port 25): a relay on the same
    /// host or network only.
    None,
}

/// The SMTP server mails go through, from `--smtp URL`.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpUrl {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// User and password for `AUTH PLAIN`, if given.
    pub login: Option<(String, String)>,
}

impl std::fmt::Debug for SmtpUrl {
    /// Without the password (settings get logged).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpUrl")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.login.as_ref().map(|(user, _)| user))
            .finish()
    }
}

impl std::str::FromStr for SmtpUrl {
    type Err = MailError;

    /// `smtp://[user:password@]host[:port][?tls=none]` or `smtps://…`;
    /// user and password percent-encoded.
    fn from_str(url: &str) -> Result<SmtpUrl, MailError> {
        let bad = |why: &str| MailError::BadUrl(why.to_string());
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| bad("smtp://host:port or smtps://host:port"))?;
        let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let security = match (scheme, query) {
            ("smtps", "") => Security::Tls,
            ("smtp", "") | ("smtp", "tls=starttls") => Security::StartTls,
            ("smtp", "tls=none") => Security::None,
            ("smtp" | "smtps", _) => {
                return Err(bad("the only option is ?tls=none or ?tls=starttls"));
            }
            _ => return Err(bad("the scheme is smtp or smtps")),
        };
        let (login, host_port) = match rest.rsplit_once('@') {
            Some((login, host)) => {
                let (user, password) = login.split_once(':').unwrap_or((login, ""));
                (Some((decode(user)?, decode(password)?)), host)
            }
            None => (None, rest),
        };
        let (host, port) = match host_port.rsplit_once(':') {
            Some((host, port)) => (host, port.parse().map_err(|_| bad("port: 1 to 65535"))?),
            None => (
                host_port,
                match security {
                    Security::Tls => 465,
                    Security::StartTls => 587,
                    Security::None => 25,
                },
            ),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() || port == 0 || host.contains(['/', '@', ' ']) {
            return Err(bad("a host and a port from 1 to 65535"));
        }
        Ok(SmtpUrl {
            host: host.to_string(),
            port,
            security,
            login,
        })
    }
}

/// Percent-decodes a user or password of a URL.
fn decode(text: &str) -> Result<String, MailError> {
    let bad = || MailError::BadUrl("a bad %-escape in the user or password".into());
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).ok_or_else(bad)?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// What a mail tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// `from` challenges the member (`clock` in PGN form, if timed).
    Challenge {
        from: String,
        variant: String,
        clock: Option<String>,
    },
    /// The member is to move in a correspondence game, by `deadline`
    /// (RFC 3339); `last` is the opponent's move, if any yet.
    YourTurn {
        game: String,
        opponent: String,
        last: Option<String>,
        deadline: Option<String>,
    },
    /// The member's move in a correspondence game is due soon.
    Reminder {
        game: String,
        opponent: String,
        deadline: String,
    },
    /// A correspondence game of the member's ended.
    End {
        game: String,
        opponent: String,
        result: String,
        reason: String,
    },
}

/// A mail's subject and plain-text body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Letter {
    pub subject: String,
    pub body: String,
}

/// The mail of `notice` in `lang` (German and English, German first,
/// when the member chose none), its links under `base` (no trailing `/`).
pub fn letter(notice: &Notice, lang: Option<Lang>, base: &str) -> Letter {
    match lang {
        Some(lang) => Letter {
            subject: subject(notice, lang),
            body: format!("{}\n-- \ntempo\n", text(notice, lang, base)),
        },
        None => Letter {
            subject: format!(
                "{} / {}",
                subject(notice, Lang::De),
                subject(notice, Lang::En)
            ),
            body: format!(
                "{}\n\n----\n\n{}\n-- \ntempo\n",
                text(notice, Lang::De, base),
                text(notice, Lang::En, base)
            ),
        },
    }
}

fn subject(notice: &Notice, lang: Lang) -> String {
    let de = lang == Lang::De;
    match notice {
        Notice::Challenge { from, .. } if de => format!("tempo: {from} fordert dich heraus"),
        Notice::Challenge { from, .. } => format!("tempo: {from} challenges you"),
        Notice::YourTurn { opponent, .. } if de => {
            format!("tempo: Du bist am Zug gegen {opponent}")
        }
        Notice::YourTurn { opponent, .. } => format!("tempo: your move against {opponent}"),
        Notice::Reminder { opponent, .. } if de => {
            format!("tempo: Erinnerung – dein Zug gegen {opponent}")
        }
        Notice::Reminder { opponent, .. } => {
            format!("tempo: reminder – your move against {opponent}")
        }
        Notice::End {
            opponent, result, ..
        } if de => format!("tempo: Partie gegen {opponent} beendet ({result})"),
        Notice::End {
            opponent, result, ..
        } => format!("tempo: game against {opponent} over ({result})"),
    }
}

fn text(notice: &Notice, lang: Lang, base: &str) -> String {
    let de = lang == Lang::De;
    let mut out = String::new();
    match notice {
        Notice::Challenge {
            from,
            variant,
            clock,
        } => {
            let clock = clock
                .as_deref()
                .unwrap_or(if de { "ohne Uhr" } else { "no clock" });
            if de {
                let _ = writeln!(
                    out,
                    "{from} fordert dich zu einer Partie heraus: {variant}, Bedenkzeit {clock}."
                );
                let _ = write!(out, "Annehmen oder ablehnen in der Lobby: {base}/lobby");
            } else {
                let _ = writeln!(
                    out,
                    "{from} challenges you to a game: {variant}, time control {clock}."
                );
                let _ = write!(out, "Accept or decline in the lobby: {base}/lobby");
            }
        }
        Notice::YourTurn {
            game,
            opponent,
            last,
            deadline,
        } => {
            let _ = match (de, last) {
                (true, Some(last)) => {
                    writeln!(out, "{opponent} hat gezogen: {last}. Du bist am Zug.")
                }
                (true, None) => {
                    writeln!(out, "Die Partie gegen {opponent} beginnt. Du bist am Zug.")
                }
                (false, Some(last)) => writeln!(out, "{opponent} played {last}. It is your move."),
                (false, None) => {
                    writeln!(out, "The game against {opponent} begins. It is your move.")
                }
            };
            if let Some(deadline) = deadline {
                let _ = match de {
                    true => writeln!(out, "Zug fällig bis {deadline} (UTC)."),
                    false => writeln!(out, "Move due by {deadline} (UTC)."),
                };
            }
            let _ = write!(out, "{base}/game/{game}");
        }
        Notice::Reminder {
            game,
            opponent,
            deadline,
        } => {
            let _ = match de {
                true => writeln!(
                    out,
                    "Dein Zug gegen {opponent} ist bis {deadline} (UTC) fällig; sonst ist die Partie auf Zeit verloren."
                ),
                false => writeln!(
                    out,
                    "Your move against {opponent} is due by {deadline} (UTC); otherwise the game is lost on time."
                ),
            };
            let _ = write!(out, "{base}/game/{game}");
        }
        Notice::End {
            game,
            opponent,
            result,
            reason,
        } => {
            let reason = reason_words(reason, lang);
            let _ = match de {
                true => writeln!(
                    out,
                    "Die Partie gegen {opponent} ist beendet: {result} ({reason})."
                ),
                false => writeln!(
                    out,
                    "The game against {opponent} is over: {result} ({reason})."
                ),
            };
            let _ = write!(out, "{base}/game/{game}");
        }
    }
    out
}

/// An end reason's stored name (`resign`, `fifty-moves`) in words.
fn reason_words(name: &str, lang: Lang) -> String {
    const WORDS: [(&str, &str, &str); 15] = [
        ("checkmate", "Schachmatt", "checkmate"),
        (
            "double-checkmate",
            "doppeltes Schachmatt",
            "double checkmate",
        ),
        ("stalemate", "Patt", "stalemate"),
        ("king-captured", "König geschlagen", "king captured"),
        (
            "both-kings-captured",
            "beide Könige geschlagen",
            "both kings captured",
        ),
        (
            "insufficient-material",
            "ungenügendes Material",
            "insufficient material",
        ),
        ("repetition", "Stellungswiederholung", "repetition"),
        (
            "fivefold-repetition",
            "fünffache Wiederholung",
            "fivefold repetition",
        ),
        ("fifty-moves", "50-Züge-Regel", "fifty-move rule"),
        (
            "seventy-five-moves",
            "75-Züge-Regel",
            "seventy-five-move rule",
        ),
        ("resign", "Aufgabe", "resignation"),
        ("timeout", "Zeitüberschreitung", "time forfeit"),
        ("agreement", "Einigung", "agreement"),
        ("aborted", "abgebrochen", "aborted"),
        ("arbiter", "Schiedsrichterentscheid", "arbiter's decision"),
    ];
    WORDS.iter().find(|(n, _, _)| *n == name).map_or_else(
        || name.replace('-', " "),
        |(_, de, en)| lang.pick(de, en).to_string(),
    )
}

/// The whole message of `letter` from `from` to `to` at `now` (ms since
/// the epoch): headers (a subject beyond ASCII encoded as RFC 2047 asks),
/// then the body, lines ending in CRLF. `id` makes the Message-ID unique.
pub fn message(from: &str, to: &str, letter: &Letter, now: u64, id: &str) -> String {
    let domain = from.rsplit_once('@').map_or("tempo", |(_, d)| d);
    let mut out = String::new();
    let _ = write!(
        out,
        "From: tempo <{from}>\r\nTo: <{to}>\r\nSubject: {}\r\nDate: {}\r\n\
         Message-ID: <{id}@{domain}>\r\nAuto-Submitted: auto-generated\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n",
        encode_header(&letter.subject),
        rfc5322_date(now)
    );
    for line in letter.body.lines() {
        out.push_str(line);
        out.push_str("\r\n");
    }
    out
}

/// A header's text as it may travel: ASCII as it is, anything else as
/// RFC 2047 encoded words (base64, whole characters in each word).
fn encode_header(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii() && !c.is_ascii_control()) {
        return text.to_string();
    }
    let mut words = Vec::new();
    let mut chunk = String::new();
    for c in text.chars() {
        // 45 bytes make 60 characters of base64: words stay under 76.
        if chunk.len() + c.len_utf8() > 45 {
            words.push(std::mem::take(&mut chunk));
        }
        if !c.is_control() {
            chunk.push(c);
        }
    }
    words.push(chunk);
    words
        .iter()
        .map(|w| format!("=?UTF-8?B?{}?=", base64(w.as_bytes())))
        .collect::<Vec<_>>()
        .join("\r\n ")
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(TABLE[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `now` (ms since the epoch) as RFC 5322 writes a date, in UTC.
fn rfc5322_date(now: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = now / 1000;
    let days = secs / 86_400;
    let (h, m, s) = (secs % 86_400 / 3600, secs % 3600 / 60, secs % 60);
    // Howard Hinnant's civil_from_days, for days since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{}, {day:02} {} {year} {h:02}:{m:02}:{s:02} +0000",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked() {
        for good in ["a@b", "anna.berg+chess@example.org", "ü@bücher.de"] {
            assert_eq!(check_email(good), Ok(()), "{good}");
        }
        let long = format!("{}@example.org", "a".repeat(MAX_EMAIL));
        for bad in [
            "",
            "ab",
            "anna",
            "@example.org",
            "anna@",
            "a@b@c",
            "a b@c.d",
            "a@b.c\r\nBcc: x@y",
            "a@b\t",
            "<a@b>",
            "a@b,c@d",
            &long,
        ] {
            assert_eq!(check_email(bad), Err(MailError::BadAddress), "{bad:?}");
        }
    }

    #[test]
    fn smtp_urls_name_host_port_security_and_login() {
        let url: SmtpUrl = "smtp://mailer:p%40ss%3Aword@mail.example.org:2525"
            .parse()
            .unwrap();
        assert_eq!(url.host, "mail.example.org");
        assert_eq!(url.port, 2525);
        assert_eq!(url.security, Security::StartTls);
        assert_eq!(url.login, Some(("mailer".into(), "p@ss:word".into())));
        assert!(!format!("{url:?}").contains("p@ss"), "no password in logs");
        let url: SmtpUrl = "smtps://mail.example.org".parse().unwrap();
        assert_eq!(
            (url.port, url.security, url.login),
            (465, Security::Tls, None)
        );
        let url: SmtpUrl = "smtp://127.0.0.1?tls=none".parse().unwrap();
        assert_eq!((url.port, url.security), (25, Security::None));
        let url: SmtpUrl = "smtp://[::1]:25/?tls=none".parse().unwrap();
        assert_eq!(url.host, "::1");
        for bad in [
            "mail.example.org",
            "http://mail.example.org",
            "smtp://:25",
            "smtp://host:0",
            "smtp://host:99999",
            "smtp://host?tls=maybe",
            "smtp://u:%zz@host",
        ] {
            assert!(bad.parse::<SmtpUrl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_letter_is_in_the_members_language_or_in_both() {
        let notice = Notice::YourTurn {
            game: "g1".into(),
            opponent: "ben".into(),
            last: Some("e4".into()),
            deadline: Some("2026-01-02T03:04:05.000Z".into()),
        };
        let de = letter(&notice, Some(Lang::De), "https://club.example");
        assert_eq!(de.subject, "tempo: Du bist am Zug gegen ben");
        assert!(de.body.contains("ben hat gezogen: e4"), "{}", de.body);
        assert!(de.body.contains("https://club.example/game/g1"));
        assert!(!de.body.contains("your move"));
        let en = letter(&notice, Some(Lang::En), "https://club.example");
        assert!(en.body.contains("ben played e4. It is your move."));
        assert!(!en.body.contains("Zug"));
        let both = letter(&notice, None, "https://club.example");
        assert_eq!(
            both.subject,
            "tempo: Du bist am Zug gegen ben / tempo: your move against ben"
        );
        assert!(both.body.find("am Zug") < both.body.find("your move"));
    }

    #[test]
    fn a_message_has_headers_a_date_and_crlf_lines() {
        assert_eq!(rfc5322_date(0), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert_eq!(
            rfc5322_date(951_782_400_007),
            "Tue, 29 Feb 2000 00:00:00 +0000"
        );
        assert_eq!(
            rfc5322_date(1_795_653_000_000),
            "Thu, 26 Nov 2026 00:30:00 +0000"
        );
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(b"fooba"), "Zm9vYmE=");
        assert_eq!(base64(b"foob"), "Zm9vYg==");
        let letter = Letter {
            subject: "tempo: Erinnerung – dein Zug".into(),
            body: "eins\n.zwei\n".into(),
        };
        let text = message("club@example.org", "anna@example.org", &letter, 0, "x1");
        assert!(text.contains("Subject: =?UTF-8?B?"), "{text}");
        assert!(text.contains("Message-ID: <x1@example.org>\r\n"));
        assert!(text.ends_with("\r\n\r\neins\r\n.zwei\r\n"), "{text:?}");
        assert!(!text.replace("\r\n", "").contains('\n'));
    }
}
