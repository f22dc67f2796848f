package io.libjump;

/** Host storage for a Config (jump_config_set_storage): a few entries under short ASCII keys. A method may
 * throw a JumpException to report its status (e.g. JumpStorageException); any other exception is
 * JUMP_E_STORAGE. Loading a missing key returns null. */
public interface Storage {
    /**
     * Loads an entry.
     *
     * @param key a short ASCII key
     * @return the entry's bytes, or null when there is none
     * @throws Exception a JumpException for its status, anything else for JUMP_E_STORAGE
     */
    byte[] load(String key) throws Exception;

    /**
     * Saves an entry, replacing the one of that key.
     *
     * @param key a short ASCII key
     * @param data the bytes
     * @throws Exception a JumpException for its status, anything else for JUMP_E_STORAGE
     */
    void save(String key, byte[] data) throws Exception;

    /**
     * Erases an entry (none there is no failure).
     *
     * @param key a short ASCII key
     * @throws Exception a JumpException for its status, anything else for JUMP_E_STORAGE
     */
    void erase(String key) throws Exception;
}
