package io.libjump;

/** Host storage for a Config (jump_config_set_storage): a few entries under short ASCII keys. A method may
 * throw a JumpException to report its status (e.g. JumpStorageException); any other exception is
 * JUMP_E_STORAGE. Loading a missing key returns null. */
public interface Storage {
    byte[] load(String key) throws Exception;

    void save(String key, byte[] data) throws Exception;

    void erase(String key) throws Exception;
}
