//! The key that seals secrets at rest: `VP_SECRETS_KEY` in production, else a key file the
//! embedded default generates on first start (so `cargo xtask run` needs no settings); `serve`
//! says so loudly at every start, because losing that file loses the secrets it sealed.

use std::io::Write;
use std::path::Path;

use vp_app::secrets::SecretKeys;

use crate::commands::CommandError;
use crate::config::SecretsKeySource;

pub fn load(source: &SecretsKeySource) -> Result<SecretKeys, CommandError> {
    match source {
        SecretsKeySource::Configured { current, previous } => SecretKeys::from_base64(current, previous.as_deref())
            .map_err(|e| CommandError::BadInput(format!("VP_SECRETS_KEY: {e}"))),
        SecretsKeySource::KeyFile(path) => from_file(path),
    }
}

fn from_file(path: &Path) -> Result<SecretKeys, CommandError> {
    let unreadable = |e: std::io::Error| CommandError::Failed(format!("the secrets key file {}: {e}", path.display()));
    if !path.exists() {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(unreadable)?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(mut file) => {
                file.write_all(SecretKeys::generate_base64().as_bytes()).map_err(unreadable)?;
                tracing::info!(path = %path.display(), "generated the secrets key file");
            }
            // Another process of this deployment created it first: read theirs.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(unreadable(e)),
        }
    }
    let text = std::fs::read_to_string(path).map_err(unreadable)?;
    SecretKeys::from_base64(&text, None)
        .map_err(|e| CommandError::BadInput(format!("the secrets key file {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_file_is_generated_once_and_read_back_on_the_next_start() {
        let dir = std::env::temp_dir().join(format!("vp-secrets-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("data").join("secrets.key");
        let first = load(&SecretsKeySource::KeyFile(path.clone())).unwrap();
        let second = load(&SecretsKeySource::KeyFile(path.clone())).unwrap();
        assert_eq!(first.current_id(), second.current_id(), "the same key on the next start");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600,
                "only its owner reads it"
            );
        }
        std::fs::write(&path, "garbage").unwrap();
        assert!(matches!(load(&SecretsKeySource::KeyFile(path)), Err(CommandError::BadInput(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
