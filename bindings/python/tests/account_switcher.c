/* account_switcher.c - the process test_accounts.py kills: switches between two saved accounts of one client
 * for ever, appending a photo tagged with the account's own name after each switch (the edit goes to the
 * account's journal, unsynced) and syncing now and then. It prints "ready" once the client is made, then one
 * line per edit, so the killer knows how far it got.
 * Usage: account_switcher LIBJUMP_SO CONFIG_JSON UUID_A UUID_B */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int status;

static void *load(void *lib, const char *name) {
    void *f = dlsym(lib, name);
    if (f == NULL) {
        fprintf(stderr, "missing %s\n", name);
        exit(2);
    }
    return f;
}

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (lib == NULL) return 2;
    status (*config_from_json)(const char *, void **) = load(lib, "jump_config_from_json");
    status (*client_new)(void *, void **) = load(lib, "jump_client_new");
    status (*switch_account)(void *, const char *) = load(lib, "jump_client_switch_account");
    status (*client_record)(void *, void **) = load(lib, "jump_client_record");
    status (*append)(void *, const char *, const char *, char **) = load(lib, "jump_record_append");
    void (*record_free)(void *) = load(lib, "jump_record_free");
    status (*sync)(void *, char **) = load(lib, "jump_client_sync");
    void *config, *client;
    if (config_from_json(argv[2], &config) != 0 || client_new(config, &client) != 0) return 3;
    printf("ready\n");
    fflush(stdout);
    const char *uuids[2] = {argv[3], argv[4]};
    for (long i = 0;; i++) {
        const char *uuid = uuids[i % 2];
        if (switch_account(client, uuid) != 0) return 4;
        void *record;
        if (client_record(client, &record) != 0) return 5;
        char element[256];
        snprintf(element, sizeof element, "{\"value\":\"%s-%ld.png\"}", uuid, i);
        status s = append(record, "/photos", element, NULL);
        record_free(record);
        if (s != 0) return 6;
        printf("%s %ld\n", uuid, i);
        fflush(stdout);
        if (i % 16 == 15 && sync(client, NULL) != 0) return 7;
    }
}
