//! E-mail: a member's address and language, and when a correspondence
//! game's reminder is due.

use sqlx::Row;

use super::{Store, StoreError, key};

/// A member's address and the language of their mails (`de`, `en`, or
/// none: both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MailAddress {
    pub email: String,
    pub lang: Option<String>,
}

impl Store {
    /// Sets (or with `None` clears) `user`'s address; `false` if there is
    /// no such user.
    pub(crate) async fn set_email(
        &self,
        user: &str,
        address: Option<&MailAddress>,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query("UPDATE users SET email = $1, email_lang = $2 WHERE name = $3")
            .bind(address.map(|a| a.email.clone()))
            .bind(address.and_then(|a| a.lang.clone()))
            .bind(key(user))
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// `user`'s address, if they gave one.
    pub(crate) async fn email(&self, user: &str) -> Result<Option<MailAddress>, StoreError> {
        let row = sqlx::query("SELECT email, email_lang FROM users WHERE name = $1")
            .bind(key(user))
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let email: Option<String> = row.try_get(0)?;
        Ok(email.map(|email| MailAddress {
            email,
            lang: row.try_get(1).ok().flatten(),
        }))
    }

    /// Sets when game `id`'s next reminder is due (`None`: none).
    pub(crate) async fn set_remind_at(&self, id: &str, at: Option<u64>) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET remind_at = $1 WHERE id = $2 AND finished = 0")
            .bind(at.map(|at| at as i64))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Unfinished games whose reminder is due by `now`, with its instant:
    /// the earliest `limit`.
    pub(crate) async fn due_reminders(
        &self,
        now: u64,
        limit: i64,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, remind_at FROM games WHERE remind_at <= $1 AND finished = 0
             ORDER BY remind_at LIMIT $2",
        )
        .bind(now as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get::<i64, _>(1)?.max(0) as u64)))
            .collect()
    }

    /// Claims game `id`'s reminder due `at`: `true` for the one caller
    /// (of any instance) that clears it.
    pub(crate) async fn claim_reminder(&self, id: &str, at: u64) -> Result<bool, StoreError> {
        let result =
            sqlx::query("UPDATE games SET remind_at = NULL WHERE id = $1 AND remind_at = $2")
                .bind(id)
                .bind(at as i64)
                .execute(&self.pool)
                .await?;
        Ok(result.rows_affected() == 1)
    }
}

#[cfg(test)]
mod tests {
    use tempo_host::{GameSpec, Header, HostedGame};

    use super::*;
    use crate::domain::accounts::{Role, User};
    use crate::storage::tests::dir;

    #[tokio::test]
    async fn an_address_is_set_read_and_cleared() {
        let dir = dir();
        let store = Store::open_dir(&dir.0).await.unwrap();
        let anna = User {
            name: "Anna".into(),
            role: Role::Player,
        };
        store.add_user(&anna, "hash", 0).await.unwrap();
        assert_eq!(store.email("anna").await.unwrap(), None);
        let address = MailAddress {
            email: "anna@example.org".into(),
            lang: Some("de".into()),
        };
        assert!(store.set_email("ANNA", Some(&address)).await.unwrap());
        assert_eq!(store.email("Anna").await.unwrap(), Some(address));
        assert!(store.set_email("anna", None).await.unwrap());
        assert_eq!(store.email("anna").await.unwrap(), None);
        assert!(!store.set_email("nobody", None).await.unwrap());
    }

    #[tokio::test]
    async fn a_reminder_is_claimed_once() {
        let dir = dir();
        let store = Store::open_dir(&dir.0).await.unwrap();
        let header = Header::new("g", &GameSpec::default(), "anna", "ben").unwrap();
        let (_, first) = HostedGame::create(header, 1_000).unwrap();
        store.add_game("anna", "ben", &first, "g").await.unwrap();
        assert!(
            store
                .due_reminders(u64::MAX >> 2, 10)
                .await
                .unwrap()
                .is_empty()
        );
        store.set_remind_at("g", Some(5_000)).await.unwrap();
        assert!(store.due_reminders(4_999, 10).await.unwrap().is_empty());
        assert_eq!(
            store.due_reminders(5_000, 10).await.unwrap(),
            [("g".to_string(), 5_000)]
        );
        assert!(
            !store.claim_reminder("g", 4_000).await.unwrap(),
            "another move's"
        );
        assert!(store.claim_reminder("g", 5_000).await.unwrap());
        assert!(!store.claim_reminder("g", 5_000).await.unwrap(), "once");
        assert!(store.due_reminders(9_000, 10).await.unwrap().is_empty());
    }
}
