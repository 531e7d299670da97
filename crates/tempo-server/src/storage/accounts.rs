//! Users, API tokens (by hash) and browser sessions (by hash).

use sqlx::Row;

use super::{Store, StoreError, key};
use crate::domain::accounts::{Role, SESSION_TTL, User};

fn role(text: &str) -> Result<Role, StoreError> {
    text.parse()
        .map_err(|e: crate::domain::accounts::UnknownRole| StoreError::Damaged(e.to_string()))
}

impl Store {
    /// Adds a user; `false` if the name is taken.
    pub async fn add_user(
        &self,
        user: &User,
        password_hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "INSERT INTO users (name, display, password, role, created) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(key(&user.name))
        .bind(&user.name)
        .bind(password_hash)
        .bind(user.role.as_str())
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// The user called `name` (any case) and their password hash.
    pub async fn user(&self, name: &str) -> Result<Option<(User, String)>, StoreError> {
        let row = sqlx::query("SELECT display, role, password FROM users WHERE name = $1")
            .bind(key(name))
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(user_and_text).transpose()
    }

    /// How many accounts there are.
    pub async fn user_count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query("SELECT COUNT(*) FROM users")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?)
    }

    /// Members' names (as registered) and roles, by name: `limit` from
    /// `offset`.
    pub async fn members(&self, limit: i64, offset: i64) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query("SELECT display, role FROM users ORDER BY name LIMIT $1 OFFSET $2")
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                Ok(User {
                    name: row.try_get(0)?,
                    role: role(&row.try_get::<String, _>(1)?)?,
                })
            })
            .collect()
    }

    /// Replaces `user`'s password hash.
    pub async fn set_password(&self, user: &str, hash: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET password = $1 WHERE name = $2")
            .bind(hash)
            .bind(key(user))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a token by its hash.
    pub async fn add_token(&self, hash: &str, user: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO tokens (hash, user_name, created) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(key(user))
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The user whose token has this hash, if the token stands at `now`
    /// (Unix milliseconds; a leased token's lease must not have lapsed).
    pub async fn token_user(&self, hash: &str, now: i64) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT u.display, u.role FROM tokens t JOIN users u ON u.name = t.user_name
             WHERE t.hash = $1 AND (t.expires IS NULL OR t.expires > $2)",
        )
        .bind(hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(User {
                name: row.try_get(0)?,
                role: role(&row.try_get::<String, _>(1)?)?,
            })
        })
        .transpose()
    }

    /// Revokes a token; whether it existed.
    pub async fn revoke_token(&self, hash: &str) -> Result<bool, StoreError> {
        let result = sqlx::query("DELETE FROM tokens WHERE hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() > 0)
    }

    /// Stores a browser session by the hash of its id (and clears the
    /// sessions long expired), in one transaction.
    pub async fn add_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        expires: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM sessions WHERE expires < $1")
            .bind(expires - SESSION_TTL.as_millis() as i64)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (hash, user_name, csrf, expires) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash)
        .bind(key(user))
        .bind(csrf)
        .bind(expires)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The user and CSRF token of a session not expired at `now`.
    pub async fn session(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<(User, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT u.display, u.role, s.csrf FROM sessions s JOIN users u ON u.name = s.user_name
             WHERE s.hash = $1 AND s.expires > $2",
        )
        .bind(hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user_and_text).transpose()
    }

    /// Ends a session.
    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every token of `user` and every session but `keep`, in one
    /// transaction; the hashes of the tokens that ended.
    pub async fn end_access(
        &self,
        user: &str,
        keep: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        let mut tx = self.begin_write().await?;
        let tokens = end_access_in(&mut tx, user, keep).await?;
        tx.commit().await?;
        Ok(tokens)
    }

    /// Replaces `user`'s password hash and ends every token of the account
    /// and every session but `keep`, in one transaction (no moment when
    /// the new password is set and the old one's tokens still work); the
    /// hashes of the tokens that ended.
    pub async fn replace_password(
        &self,
        user: &str,
        hash: &str,
        keep: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE users SET password = $1 WHERE name = $2")
            .bind(hash)
            .bind(key(user))
            .execute(&mut *tx)
            .await?;
        let tokens = end_access_in(&mut tx, user, keep).await?;
        tx.commit().await?;
        Ok(tokens)
    }
}

/// [`Store::end_access`] within a transaction.
async fn end_access_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user: &str,
    keep: Option<&str>,
) -> Result<Vec<String>, StoreError> {
    let name = key(user);
    let tokens: Vec<String> = sqlx::query("SELECT hash FROM tokens WHERE user_name = $1")
        .bind(&name)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    sqlx::query("DELETE FROM tokens WHERE user_name = $1")
        .bind(&name)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE user_name = $1 AND hash <> $2")
        .bind(&name)
        .bind(keep.unwrap_or(""))
        .execute(&mut **tx)
        .await?;
    Ok(tokens)
}

/// A row of `display, role, <text>`: the user and the text beside it (a
/// password hash, a session's CSRF token).
fn user_and_text(row: &sqlx::any::AnyRow) -> Result<(User, String), StoreError> {
    let user = User {
        name: row.try_get(0)?,
        role: role(&row.try_get::<String, _>(1)?)?,
    };
    Ok((user, row.try_get(2)?))
}
