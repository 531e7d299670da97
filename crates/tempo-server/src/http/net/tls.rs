//! Built-in TLS (rustls with the `ring` provider): a certificate chain and
//! its private key from PEM files, checked at start so that a wrong file
//! is one clear line, not a failed handshake later.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Why the TLS files cannot be used. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it", path.display())]
    NoCertificate { path: PathBuf },
    #[error("{}: no PEM private key (-----BEGIN PRIVATE KEY-----, RSA or EC) in it", path.display())]
    NoKey { path: PathBuf },
    #[error("{}: not valid PEM: {detail}", path.display())]
    BadPem { path: PathBuf, detail: String },
    #[error("the key in {} does not match the certificate in {}", key.display(), cert.display())]
    Mismatch { cert: PathBuf, key: PathBuf },
    #[error("{} and {}: {detail}", cert.display(), key.display())]
    Rejected {
        cert: PathBuf,
        key: PathBuf,
        detail: String,
    },
}

/// A server's TLS setup: what the connection layer hands each new
/// connection's handshake.
#[derive(Clone)]
pub struct Tls {
    pub(crate) config: Arc<rustls::ServerConfig>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tls { .. }")
    }
}

impl Tls {
    /// Reads the certificate chain (`cert`, the server's first) and its
    /// private key (`key`, PKCS#8, PKCS#1 or SEC1), both PEM.
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        let cert_pem = read(cert)?;
        let key_pem = read(key)?;
        let chain = CertificateDer::pem_slice_iter(&cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error(cert, e, || TlsError::NoCertificate { path: cert.into() }))?;
        if chain.is_empty() {
            return Err(TlsError::NoCertificate { path: cert.into() });
        }
        let private_key = PrivateKeyDer::from_pem_slice(&key_pem)
            .map_err(|e| pem_error(key, e, || TlsError::NoKey { path: key.into() }))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let rejected = |e: rustls::Error| match e {
            rustls::Error::InconsistentKeys(_) => TlsError::Mismatch {
                cert: cert.into(),
                key: key.into(),
            },
            other => TlsError::Rejected {
                cert: cert.into(),
                key: key.into(),
                detail: other.to_string(),
            },
        };
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(rejected)?
            .with_no_client_auth()
            .with_single_cert(chain, private_key)
            .map_err(rejected)?;
        // HTTP/2 where the browser offers it (one connection for all of a
        // page's streams), else HTTP/1.1.
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(Tls {
            config: Arc::new(config),
        })
    }
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.into(),
        source,
    })
}

fn pem_error(path: &Path, error: pem::Error, missing: impl FnOnce() -> TlsError) -> TlsError {
    match error {
        pem::Error::NoItemsFound => missing(),
        other => TlsError::BadPem {
            path: path.into(),
            detail: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn each_unusable_file_is_named() {
        let dir = std::env::temp_dir().join(format!("tempo-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.pem");
        let empty = file(&dir, "empty.pem", "just text\n");
        let broken = file(
            &dir,
            "broken.pem",
            "-----BEGIN CERTIFICATE-----\n!!!not base64!!!\n-----END CERTIFICATE-----\n",
        );
        let error = Tls::from_pem_files(&missing, &empty).unwrap_err();
        assert!(matches!(error, TlsError::Read { .. }), "{error}");
        assert!(error.to_string().contains("missing.pem"), "{error}");
        let error = Tls::from_pem_files(&empty, &empty).unwrap_err();
        assert!(matches!(error, TlsError::NoCertificate { .. }), "{error}");
        assert!(error.to_string().contains("empty.pem"), "{error}");
        let error = Tls::from_pem_files(&broken, &empty).unwrap_err();
        assert!(error.to_string().contains("broken.pem"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
