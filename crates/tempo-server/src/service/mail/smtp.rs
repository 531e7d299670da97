//! A small SMTP submission client: one mail per connection (EHLO,
//! STARTTLS or TLS from the start, AUTH PLAIN, MAIL, RCPT, DATA, QUIT),
//! over rustls with the `ring` provider the server already has. Written
//! here rather than taken from a mail crate: the server sends a few
//! plain-text notices, and this needs no crate beyond those it has.

use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::domain::mail::{Security, SmtpUrl, base64};

/// Longest wait for a connection, a reply or a write.
const STEP_TIMEOUT: Duration = Duration::from_secs(20);
/// Longest reply line read, and most lines of one reply (a server that
/// sends more is not an SMTP server worth waiting for).
const MAX_LINE: usize = 2_048;
const MAX_REPLY_LINES: usize = 64;

/// Where the system keeps its certificate authorities (Debian/Ubuntu,
/// Fedora/RHEL, Alpine/BSD); `SSL_CERT_FILE` first, as OpenSSL reads it.
const CA_FILES: [&str; 3] = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/cert.pem",
];

/// Why a mail was not sent.
#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    #[error("SMTP connection: {0}")]
    Io(#[from] std::io::Error),
    #[error("SMTP server did not answer in time")]
    Timeout,
    #[error("SMTP server answered {code} to {step}: {text}")]
    Reply {
        step: &'static str,
        code: u16,
        text: String,
    },
    #[error("SMTP server sent an unreadable reply")]
    Garbled,
    #[error("SMTP server offers no STARTTLS (use smtps:// or, on a trusted network, ?tls=none)")]
    NoStartTls,
    #[error("TLS: {0}")]
    Tls(String),
}

/// The TLS settings for mail servers: the system's certificate
/// authorities. `None` when the URL asks for no TLS.
pub fn tls_config(url: &SmtpUrl) -> Result<Option<Arc<rustls::ClientConfig>>, SmtpError> {
    if url.security == Security::None {
        return Ok(None);
    }
    let file = std::env::var("SSL_CERT_FILE")
        .ok()
        .into_iter()
        .chain(CA_FILES.iter().map(|f| f.to_string()))
        .find(|f| std::path::Path::new(f).is_file())
        .ok_or_else(|| SmtpError::Tls("no certificate authorities found (SSL_CERT_FILE)".into()))?;
    let mut roots = rustls::RootCertStore::empty();
    for cert in
        CertificateDer::pem_file_iter(&file).map_err(|e| SmtpError::Tls(format!("{file}: {e}")))?
    {
        let cert = cert.map_err(|e| SmtpError::Tls(format!("{file}: {e}")))?;
        // A certificate rustls cannot use is skipped, as browsers do.
        let _ = roots.add(cert);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| SmtpError::Tls(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Some(Arc::new(config)))
}

/// One mail: the envelope and the whole message (headers and body, CRLF
/// line ends).
pub struct Outgoing {
    pub from: String,
    pub to: String,
    pub message: String,
}

trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

struct Session {
    conn: BufReader<Box<dyn Io>>,
}

/// Runs `step` with the step timeout.
async fn timed<T>(step: impl Future<Output = Result<T, SmtpError>>) -> Result<T, SmtpError> {
    tokio::time::timeout(STEP_TIMEOUT, step)
        .await
        .map_err(|_| SmtpError::Timeout)?
}

/// Sends `mail` through the server at `url`, saying `hello` (our host
/// name) in EHLO.
pub async fn send(
    url: &SmtpUrl,
    tls: Option<&Arc<rustls::ClientConfig>>,
    hello: &str,
    mail: &Outgoing,
) -> Result<(), SmtpError> {
    let tcp = timed(async { Ok(TcpStream::connect((url.host.as_str(), url.port)).await?) }).await?;
    let stream: Box<dyn Io> = match (url.security, tls) {
        (Security::Tls, Some(config)) => Box::new(wrap(tcp, config, &url.host).await?),
        _ => Box::new(tcp),
    };
    let mut session = Session {
        conn: BufReader::new(stream),
    };
    session.expect("greeting", 220).await?;
    let mut extensions = session.ehlo(hello).await?;
    if url.security == Security::StartTls {
        let config = tls.ok_or(SmtpError::NoStartTls)?;
        if !extensions
            .iter()
            .any(|e| e.eq_ignore_ascii_case("STARTTLS"))
        {
            return Err(SmtpError::NoStartTls);
        }
        session.command("STARTTLS", "STARTTLS", 220).await?;
        let plain = session.conn.into_inner();
        session = Session {
            conn: BufReader::new(Box::new(wrap(plain, config, &url.host).await?)),
        };
        extensions = session.ehlo(hello).await?;
    }
    if let Some((user, password)) = &url.login {
        let token = base64(format!("\0{user}\0{password}").as_bytes());
        session
            .command("AUTH", &format!("AUTH PLAIN {token}"), 235)
            .await?;
    }
    let body = if extensions
        .iter()
        .any(|e| e.eq_ignore_ascii_case("8BITMIME"))
    {
        " BODY=8BITMIME"
    } else {
        ""
    };
    session
        .command("MAIL", &format!("MAIL FROM:<{}>{body}", mail.from), 250)
        .await?;
    session
        .command("RCPT", &format!("RCPT TO:<{}>", mail.to), 250)
        .await?;
    session.command("DATA", "DATA", 354).await?;
    session.data(&mail.message).await?;
    // The mail is the server's now; a failed goodbye changes nothing.
    let _ = session.command("QUIT", "QUIT", 221).await;
    Ok(())
}

/// TLS over `stream`, checking the certificate for `host`.
async fn wrap<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
    stream: S,
    config: &Arc<rustls::ClientConfig>,
    host: &str,
) -> Result<tokio_rustls::client::TlsStream<S>, SmtpError> {
    let name = ServerName::try_from(host.to_string()).map_err(|e| SmtpError::Tls(e.to_string()))?;
    let connector = tokio_rustls::TlsConnector::from(config.clone());
    timed(async { Ok(connector.connect(name, stream).await?) }).await
}

impl Session {
    /// Reads one reply: its code and its lines' texts.
    async fn reply(&mut self) -> Result<(u16, Vec<String>), SmtpError> {
        let mut lines = Vec::new();
        loop {
            let mut line = Vec::new();
            let read = timed(async {
                Ok((&mut self.conn)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut line)
                    .await?)
            })
            .await?;
            if read == 0 || !line.ends_with(b"\n") || lines.len() >= MAX_REPLY_LINES {
                return Err(SmtpError::Garbled);
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end();
            let code = text
                .get(..3)
                .and_then(|c| c.parse().ok())
                .ok_or(SmtpError::Garbled)?;
            let more = text.as_bytes().get(3) == Some(&b'-');
            lines.push(text.get(4..).unwrap_or_default().to_string());
            if !more {
                return Ok((code, lines));
            }
        }
    }

    /// Reads a reply that must have code `want`.
    async fn expect(&mut self, step: &'static str, want: u16) -> Result<Vec<String>, SmtpError> {
        let (code, lines) = self.reply().await?;
        if code != want && !(want == 250 && code == 251) {
            return Err(SmtpError::Reply {
                step,
                code,
                text: lines.join(" ").chars().take(200).collect(),
            });
        }
        Ok(lines)
    }

    async fn write(&mut self, text: &str) -> Result<(), SmtpError> {
        timed(async {
            let conn = self.conn.get_mut();
            conn.write_all(text.as_bytes()).await?;
            Ok(conn.flush().await?)
        })
        .await
    }

    async fn command(
        &mut self,
        step: &'static str,
        line: &str,
        want: u16,
    ) -> Result<Vec<String>, SmtpError> {
        self.write(&format!("{line}\r\n")).await?;
        self.expect(step, want).await
    }

    /// EHLO: the extensions the server offers (their keywords).
    async fn ehlo(&mut self, hello: &str) -> Result<Vec<String>, SmtpError> {
        let lines = self.command("EHLO", &format!("EHLO {hello}"), 250).await?;
        Ok(lines
            .iter()
            .skip(1)
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect())
    }

    /// The message, dot-stuffed, and the lone dot that ends it.
    async fn data(&mut self, message: &str) -> Result<(), SmtpError> {
        let mut text = String::with_capacity(message.len() + 16);
        for line in message.split("\r\n") {
            if line.starts_with('.') {
                text.push('.');
            }
            text.push_str(line);
            text.push_str("\r\n");
        }
        text.push_str(".\r\n");
        self.write(&text).await?;
        self.expect("DATA", 250).await.map(drop)
    }
}
