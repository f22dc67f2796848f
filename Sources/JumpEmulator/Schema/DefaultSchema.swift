/// The schema of the default app: the shape of Capture's default `user` entity type (docs/protocol.md §8.1).
enum DefaultSchema {
    static let user = Schema(name: "user", attributes: [
        .of(.id, "id"),
        .of(.uuid, "uuid"),
        .of(.dateTime, "created"),
        .of(.dateTime, "lastUpdated"),
        .string("email", length: 256, unique: true, caseSensitive: false),
        .of(.dateTime, "emailVerified"),
        .string("username", length: 64, unique: true, caseSensitive: false),
        .string("displayName", length: 64),
        .string("givenName", length: 64),
        .string("middleName", length: 64),
        .string("familyName", length: 64),
        .string("aboutMe", length: 1000),
        .string("gender", length: 100),
        .of(.date, "birthday"),
        .of(.password, "password"),
        .object("primaryAddress", [
            .string("address1"), .string("address2"), .string("city"), .string("zip", length: 32),
            .string("stateAbbreviation", length: 16), .string("country"), .string("phone", length: 64),
        ]),
        .object("name", [
            .string("formatted"), .string("honorificPrefix", length: 64), .string("honorificSuffix", length: 64),
        ]),
        .plural("photos", [.string("type", length: 64), .string("value", length: 2000)]),
        .plural("statuses", [.string("status", length: 1000), .of(.dateTime, "statusCreated")]),
        .plural("profiles", [
            .string("identifier", length: 1000, unique: true, required: true),
            .string("domain"),
            .string("verifiedEmail"),
            .of(.json, "profile"),
            .of(.json, "accessCredentials"),
            // A plural inside a plural's elements, as in Capture's default schema, so paths like
            // /profiles#5/friends#9/displayName exist and SDKs can test them.
            .plural("friends", [.string("identifier", length: 1000), .string("displayName", length: 64)]),
        ]),
    ])
}
