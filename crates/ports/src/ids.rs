/// Identifiers and secrets. Implementations must use a cryptographically secure source.
pub trait IdGenerator: Send + Sync {
    /// A new unique id with a readable prefix, for example `pay_3fJ9...`.
    fn new_id(&self, prefix: &str) -> String;
    /// `len` random bytes, for API keys, link tokens and webhook secrets.
    fn random_bytes(&self, len: usize) -> Vec<u8>;
}
