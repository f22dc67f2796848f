package io.libjump;

/** What {@link Tokens#credentials(java.time.Duration, CredentialsFlag...)} may be asked besides the minimum
 * lifetime (jump.h's {@code JUMP_CREDENTIALS_*} flags). */
public enum CredentialsFlag {
    /** Refresh now even when the token lasts long enough (e.g. after a 401): {@code JUMP_CREDENTIALS_FORCE_REFRESH}. */
    FORCE_REFRESH(Native.CREDENTIALS_FORCE_REFRESH);

    private final int bit;

    CredentialsFlag(int bit) {
        this.bit = bit;
    }

    /**
     * The flag's bit in jump.h's {@code flags} argument.
     *
     * @return the bit (a power of two)
     */
    public int bit() {
        return bit;
    }

    /** The flags as jump.h's bit set. */
    static int bits(CredentialsFlag... flags) {
        int bits = 0;
        if (flags != null)
            for (CredentialsFlag f : flags)
                if (f != null) bits |= f.bit;
        return bits;
    }
}
