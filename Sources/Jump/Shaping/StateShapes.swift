import JumpCore

/// The JSON documents of jump_client_state, jump_client_status, jump_client_linked_profiles and
/// jump_record_changes (jump.h), from JumpCore's typed values.
extension CaptureSessionState {
    var json: JSON {
        [
            "signed_in": .bool(signedIn),
            "uuid": .optional(uuid),
            "email": .optional(email),
            "reauthentication_required": .bool(reauthenticationRequired),
            "access_token_expires_at": accessTokenExpiresAt.map(JSON.int) ?? .null,
            "unsynced_changes": .bool(unsyncedChanges),
            "restore_error": restoreError?.json ?? .null,
            "storage_error": storageError?.json ?? .null,
            "quarantine": .array(quarantine.map(\.json)),
            "flow_version": .optional(flowVersion),
            "secret_store": .string(secretStore.rawValue),
            "clock_offset_seconds": .int(clockOffsetSeconds),
        ]
    }
}

extension QuarantineEntry {
    /// "unsynced_changes" is always true: only a session that may hold edits not yet synced is set aside.
    var json: JSON {
        ["entry": .string(id), "reason": .string(reason.rawValue), "uuid": .optional(uuid),
         "unsynced_changes": true, "quarantined_at": .int(quarantinedAt), "message": .string(message)]
    }
}

extension TokenStatusReport {
    var json: JSON {
        var members = status.json.objectValue ?? [:]
        members["restore_error"] = restoreError?.json ?? .null
        return .object(members)
    }
}

extension LinkedIdentity {
    var json: JSON {
        ["identifier": .string(identifier), "domain": .optional(domain), "provider": .optional(provider),
         "display_name": .optional(displayName), "email": .optional(email), "path": .optional(path)]
    }
}

extension SyncRequest {
    var json: JSON {
        var members: [String: JSON] = ["endpoint": .string(kind.endpoint),
                                       "attribute_name": path.isRoot ? .null : .string(path.description)]
        if let attributes { members["attributes"] = attributes }
        return .object(members)
    }
}

extension RecordChanges {
    /// {"changed":[..],"update":{..},"requests":[..]}
    var json: JSON {
        ["changed": .array(changed.map(JSON.string)), "update": rootUpdate, "requests": .array(requests.map(\.json))]
    }
}
