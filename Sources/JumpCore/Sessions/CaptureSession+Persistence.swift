/// The Capture session's side of its storage (CaptureStorage): when the session is read back, saved whole,
/// and when an edit is journaled instead; the credential another process saved is taken on the way.
extension CaptureSession {
    /// Reads the saved session again. Nothing saved: signed out. Unreadable: JUMP_E_STORAGE, nothing deleted.
    public func restore() throws(JumpError) {
        let started = state.withLock { $0.generation }
        let loaded: Session?, journaled: Bool, secretItem: String?
        do {
            (loaded, journaled, secretItem) = try storage.load()
        } catch {
            state.withLock { s in
                guard s.generation == started else { return }
                s.restoreError = error
                if error.detail["reason"]?.stringValue == "secret_service_unavailable" { s.stored.secretServiceNeeded = error }
            }
            throw error
        }
        try state.withLock { s throws(JumpError) in
            // A sign-in or sign-out finished while the store was read: what was read is no longer what is
            // stored, and the session in memory is the one to keep.
            guard s.generation == started else {
                throw JumpError(.busy, "another sign-in or sign-out finished while the session was being restored")
            }
            s.restoreError = nil
            if let loaded {
                // Entries whose edits this session took back before a crash came between its save and their
                // release, and entries of this very session (the sign-in that replaced it never got saved).
                let absorbed = Set(loaded.absorbed)
                whileSaving(&s) { s in
                    storage.release(&s.stored) { entry in
                        absorbed.contains(entry.id) || (entry.sessionID != nil && entry.sessionID == loaded.sessionID)
                    }
                }
                s.replaceSession(with: loaded, onStorage: true)
                restoreClockOffset(loaded.clockOffsetSeconds)
                // A secret from the moment it is read back, as when it arrived: a server may quote it.
                SecretScrubber.remember(loaded.accessToken)
                s.updateSession { $0.absorbed = [] }
                s.stored.restored(journalEpoch: journaled ? loaded.epoch : nil, secretItem: secretItem)
                // A session an earlier version (or secretStore "file") saved with its secrets: they move to the
                // Secret Service now, and out of the file.
                if storage.secrets != nil && secretItem == nil { persist(&s) }
            }
        }
    }

    /// Saves (or erases) the session; a failure is remembered and logged, because the server-side operation
    /// that led here has already succeeded and must not be reported as failed. The epoch in memory moves
    /// only with a save that worked, so journal lines keep pointing at what is really on storage.
    func persist(_ s: inout CaptureState) {
        whileSaving(&s) { s in saveWhole(&s) }
    }

    private func saveWhole(_ s: inout CaptureState) {
        do {
            if s.session != nil {
                // Under the store's lock: a process sharing the storage directory may have refreshed this
                // session's token since it was read here; its newer credential is kept, not written over.
                try storage.underSessionLock { () throws(JumpError) in
                    if let saved = storage.savedElsewhere() { _ = adoptCredential(&s, from: saved) }
                    guard var next = s.session else { return }
                    next.epoch &+= 1
                    next.clockOffsetSeconds = clockOffsetToSave() ?? next.clockOffsetSeconds
                    try storage.save(next, &s.stored)
                    s.updateSession { [next] in
                        $0.epoch = next.epoch
                        $0.clockOffsetSeconds = next.clockOffsetSeconds
                    }
                }
            } else {
                try storage.eraseWhole(&s.stored)
            }
            storage.didSaveWhole(saved: s.session != nil, &s.stored)
        } catch {
            s.stored.storageError = error
            Log.warning("the session could not be saved: \(error.message)")
        }
    }

    /// Takes the credential of `saved` when it is this very session (same id and user) refreshed further
    /// than the one in memory (processes sharing the storage directory); a refresh another process sent and
    /// never saw answered is taken too, so that it is replayed rather than sent anew. true when the token changed.
    func adoptCredential(_ s: inout CaptureState, from saved: Session) -> Bool {
        guard let ours = s.session, !ours.sessionID.isEmpty, saved.sessionID == ours.sessionID,
              saved.record.uuid == ours.record.uuid else { return false }
        guard saved.credentialSerial > ours.credentialSerial else {
            if ours.pendingRefresh == nil, let pending = saved.pendingRefresh, pending.accessToken == ours.accessToken {
                s.updateSession { $0.pendingRefresh = pending }
            }
            return false
        }
        // A secret from the moment it is read, as when it arrived: a server may quote it.
        SecretScrubber.remember(saved.accessToken)
        s.updateSession {
            $0.accessToken = saved.accessToken
            $0.accessTokenExpiresAt = saved.accessTokenExpiresAt
            $0.refreshSecret = saved.refreshSecret
            $0.reauthenticationRequired = saved.reauthenticationRequired
            $0.credentialSerial = saved.credentialSerial
            $0.pendingRefresh = nil
        }
        return true
    }

    /// A save that failed earlier is tried again before the next change (the storage may be back).
    func retryFailedSave(_ s: inout CaptureState) {
        if s.stored.storageError != nil, s.session != nil { persist(&s) }
    }

    /// Makes an edit durable, then applies it: appended to the journal of the saved session, or, when there
    /// is no such journal to append to, the session saved whole. An edit that cannot be saved is not made.
    func commitEdit(_ s: inout CaptureState, _ op: RecordOp) throws(JumpError) {
        do {
            try whileSaving(&s, journalLine: true) { s throws(JumpError) in try storage.append(JournalLine.bytes(op), for: s.session, &s.stored) }
        } catch {
            // Questions asked during the save see the record without the edit: it is not made until saved.
            try whileSaving(&s) { s throws(JumpError) in
                let before = s.session?.record
                s.updateSession { $0.record.apply(op) }
                persist(&s)
                if let failure = s.stored.storageError {
                    if let before { s.updateSession { $0.record = before } }
                    throw JumpError(.storage, "the edit was not made, because it could not be saved (\(failure.message))",
                                    detail: failure.detail)
                }
            }
            return
        }
        s.updateSession { $0.record.apply(op) }
        if storage.journalIsLong(s.stored) { persist(&s) }
    }

    /// Journals operations already applied (the server's acknowledgements of a sync). When they cannot be
    /// journaled the session is saved whole; when that fails too they are known again at the next fetch
    /// (the server holds what they acknowledge).
    func journal(_ s: inout CaptureState, _ ops: [RecordOp]) {
        guard !ops.isEmpty, s.session != nil else { return }
        do {
            try whileSaving(&s, journalLine: true) { s throws(JumpError) in try storage.append(RecordJournal.encode(ops), for: s.session, &s.stored) }
        } catch {
            persist(&s)
        }
    }
}

extension CaptureSession {
    /// Erases every session set aside.
    public func eraseQuarantine() throws(JumpError) { try eraseQuarantine(where: { _ in true }) }

    /// Erases the sessions set aside that `matches` picks.
    func eraseQuarantine(where matches: @escaping (QuarantineEntry) -> Bool) throws(JumpError) {
        try state.withLock { s throws(JumpError) in
            try whileSaving(&s) { s throws(JumpError) in try storage.eraseQuarantine(&s.stored, where: matches) }
        }
    }

    /// Whether the saved session could not be read (restore_error): the account is there, unreadable.
    var isUnreadable: Bool { answer { s in s.restoreError != nil } }
}
