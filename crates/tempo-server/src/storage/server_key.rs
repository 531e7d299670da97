//! The server's signing key.

use sqlx::Row;
use tempo_host::chain::{hex, unhex};

use super::{Store, StoreError};

impl Store {
    /// The server's ed25519 seed: made once, the same for every instance
    /// on this database.
    pub async fn server_seed(&self) -> Result<[u8; 32], StoreError> {
        let fresh: [u8; 32] = rand::random();
        sqlx::query(
            "INSERT INTO server_keys (id, seed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
        )
        .bind(hex(&fresh))
        .execute(&self.pool)
        .await?;
        let seed: String = sqlx::query("SELECT seed FROM server_keys WHERE id = 1")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        unhex::<32>(&seed).ok_or_else(|| StoreError::Damaged("the server key".into()))
    }
}
