//! Passwords of the cabinet and the operator's view: Argon2id with the crate's default cost
//! (19 MiB, 2 passes), hashed on a blocking thread so a sign-in never stalls the async workers.

use std::sync::OnceLock;

use argon2::{Argon2, PasswordHasher, PasswordVerifier};

use crate::error::{AppError, AppResult};

/// The PHC string (`$argon2id$v=19$...`) of `password` with `salt` (16 random bytes).
pub async fn hash(password: String, salt: Vec<u8>) -> AppResult<String> {
    tokio::task::spawn_blocking(move || hash_now(&password, &salt))
        .await
        .map_err(|e| AppError::External(format!("password hashing stopped: {e}")))?
}

fn hash_now(password: &str, salt: &[u8]) -> AppResult<String> {
    Argon2::default()
        .hash_password_with_salt(password.as_bytes(), salt)
        .map(|h| h.to_string())
        .map_err(|e| AppError::External(format!("password hashing failed: {e}")))
}

/// Whether `password` matches `stored`. Without a stored hash (unknown email, invitation not
/// accepted) a fixed hash is checked anyway, so the answer takes as long either way.
pub async fn verify(stored: Option<String>, password: String) -> bool {
    tokio::task::spawn_blocking(move || {
        let matched =
            Argon2::default().verify_password(password.as_bytes(), stored.as_deref().unwrap_or(decoy())).is_ok();
        matched && stored.is_some()
    })
    .await
    .unwrap_or(false)
}

fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_now("not a password of anyone", b"decoy-salt-16byt").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_password_matches_its_argon2id_hash_and_nothing_else() {
        let stored = hash("correct horse battery".into(), b"0123456789abcdef".to_vec()).await.unwrap();
        assert!(stored.starts_with("$argon2id$v=19$"), "{stored}");
        assert!(!stored.contains("correct horse"));
        assert!(verify(Some(stored.clone()), "correct horse battery".into()).await);
        assert!(!verify(Some(stored), "correct horse battery!".into()).await);
        assert!(!verify(None, "not a password of anyone".into()).await, "the decoy never signs anyone in");
    }
}
