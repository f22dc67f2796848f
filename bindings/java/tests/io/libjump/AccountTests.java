package io.libjump;

import static io.libjump.Support.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Several accounts in one client (config key "accounts" = "multiple") against the real emulator: two users
 * signed in, listed, switched back and forth without a password, one removed while the other stays usable. */
final class AccountTests {
    private AccountTests() {}

    /** A user made through the emulator's admin API: {email, uuid}. */
    private static String[] adminUser(String displayName) throws Exception {
        String email = uniqueEmail();
        Object user = Json.get(emu().admin("POST", "/emulator/users", Json.write(Map.of("email", email, "password", PASSWORD,
                "record", Map.of("displayName", displayName)))), "user");
        String uuid = Json.string(user, "uuid");
        check(uuid != null, "the admin API made a user: " + user);
        return new String[] {email, uuid};
    }

    private static Client multiple() {
        Map<String, Object> s = settings(tempDir().toString());
        s.put(ConfigKey.ACCOUNTS, "multiple");
        try (Config c = Config.of(s)) {
            return new Client(c);
        }
    }

    private static String recordEmail(Client c) {
        try (Record r = c.record()) {
            return r.getString("/email");
        }
    }

    @TestRunner.Test
    public static void two_users_listed_switched_and_one_removed() throws Exception {
        String[] ann = adminUser("Ann");
        String[] bob = adminUser("Bob");
        try (Client c = multiple()) {
            List<String> switched = new CopyOnWriteArrayList<>();
            c.onEvent(e -> {
                if (e.name() == Event.Name.ACCOUNT_SWITCHED) switched.add(e.uuid());
            });
            SavedAccounts none = c.accounts();
            check(none.accounts().isEmpty() && none.active() == null, "a new client's accounts: " + none.json());
            c.signIn(ann[0], PASSWORD);
            c.signIn(bob[0], PASSWORD);

            SavedAccounts listed = c.accounts();
            equal(2, listed.accounts().size(), "two accounts: " + listed.json());
            equal(bob[1], listed.active(), "Bob (the last sign-in) is active");
            SavedAccount first = listed.accounts().get(0), second = listed.accounts().get(1);
            check(first.uuid().equals(bob[1]) && first.active() && first.email().equals(bob[0]) && "Bob".equals(first.displayName()),
                    "the active account first: " + first);
            check(second.uuid().equals(ann[1]) && !second.active() && second.email().equals(ann[0]) && second.signedIn()
                    && !second.reauthenticationRequired(), "Ann second, still signed in: " + second);

            // back and forth without a password: the state's uuid and the record follow
            emu().admin("DELETE", "/emulator/counters", null);
            c.switchAccount(ann[1]);
            check(c.isSignedIn(), "signed in after the switch");
            equal(ann[1], c.state().uuid(), "state uuid after switching to Ann");
            equal(ann[0], recordEmail(c), "record email after switching to Ann");
            c.switchAccount(bob[1]);
            equal(bob[1], c.state().uuid(), "state uuid after switching to Bob");
            equal(bob[0], recordEmail(c), "record email after switching to Bob");
            equal(null, await(c.switchAccountAsync(ann[1])), "switchAccountAsync's result");
            equal(ann[1], c.state().uuid(), "state uuid after the async switch to Ann");
            equal(ann[0], recordEmail(c), "record email after the async switch to Ann");
            Object counters = Json.get(emu().admin("GET", "/emulator/counters", null), "counters");
            check(Json.get(counters, "POST /oauth/auth_native_traditional") == null, "no switch signed in again: " + counters);
            eventually(() -> switched.size() >= 3
                    && switched.subList(switched.size() - 3, switched.size()).equals(List.of(ann[1], bob[1], ann[1])),
                    "account_switched events for Ann, Bob, Ann: " + switched);

            // unknown uuids
            expect(JumpNotFoundException.class, () -> c.switchAccount("no-such-uuid"), "switchAccount(unknown)");
            expect(JumpNotFoundException.class, () -> await(c.switchAccountAsync("no-such-uuid")), "switchAccountAsync(unknown)");
            expect(JumpNotFoundException.class, () -> c.removeAccount("no-such-uuid"), "removeAccount(unknown)");
            equal(ann[1], c.state().uuid(), "a refused switch leaves Ann active");

            // remove Bob: Ann stays signed in and usable
            c.removeAccount(bob[1]);
            listed = c.accounts();
            equal(1, listed.accounts().size(), "one account left: " + listed.json());
            equal(ann[1], listed.active(), "Ann active");
            expect(JumpNotFoundException.class, () -> c.switchAccount(bob[1]), "switchAccount(removed Bob)");
            try (Record r = c.record()) {
                r.setString("/aboutMe", "still usable");
            }
            check(c.sync().changed().contains("/aboutMe") && c.isSignedIn(), "Ann syncs after Bob's removal");
            Object user = Json.get(emu().admin("GET", "/emulator/users/" + ann[1], null), "user");
            equal("still usable", Json.string(user, "aboutMe"), "Ann's record on the server");

            // removing the active account leaves no one active
            c.removeAccount(ann[1]);
            check(!c.isSignedIn(), "no user active after removing the active account");
            SavedAccounts empty = c.accounts();
            check(empty.accounts().isEmpty() && empty.active() == null, "nothing left: " + empty.json());
        }
    }

    @TestRunner.Test
    public static void single_mode_lists_the_signed_in_user() throws Exception {
        String[] ann = adminUser("Ann");
        try (Client c = client(tempDir().toString())) {
            c.signIn(ann[0], PASSWORD);
            SavedAccounts listed = c.accounts();
            List<String> uuids = new ArrayList<>();
            for (SavedAccount a : listed.accounts()) uuids.add(a.uuid());
            equal(List.of(ann[1]), uuids, "the signed-in user only");
            equal(ann[1], listed.active(), "active");
        }
    }
}
