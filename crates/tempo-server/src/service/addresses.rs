//! A member's own e-mail address: set, read, cleared. Only its member
//! (and the mail worker) ever reads it.

use crate::domain::accounts::User;
use crate::domain::mail::{Lang, check_email};
use crate::service::AppState;
use crate::service::accounts::AccountsError;
use crate::storage::MailAddress;

/// Sets `user`'s address and the language of their mails (`de`, `en`, or
/// none: both in each mail); an empty or missing address clears it.
pub(crate) async fn set_address(
    state: &AppState,
    user: &User,
    email: Option<String>,
    lang: Option<String>,
) -> Result<Option<MailAddress>, AccountsError> {
    let address = match email
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty())
    {
        None => None,
        Some(email) => {
            check_email(&email)?;
            let lang = lang
                .filter(|l| !l.is_empty())
                .map(|l| Lang::parse(&l).map(|l| l.as_str().to_string()))
                .transpose()?;
            Some(MailAddress { email, lang })
        }
    };
    if !state.store.set_email(&user.name, address.as_ref()).await? {
        return Err(AccountsError::NoSuchUser);
    }
    Ok(address)
}

/// `user`'s address, if they gave one.
pub(crate) async fn address(
    state: &AppState,
    user: &User,
) -> Result<Option<MailAddress>, AccountsError> {
    Ok(state.store.email(&user.name).await?)
}
