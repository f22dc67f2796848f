/// The Capture session on storage: the session entry (saved whole), the record journal (edits appended
/// between full saves), both bound to the session's id, and the quarantine of sessions set aside.
extension CaptureSession {
    /// Reads the saved session again. Nothing saved: signed out. Unreadable: JUMP_E_STORAGE, nothing deleted.
    public func restore() throws(JumpError) {
        let started = state.withLock { $0.generation }
        var loaded: Session?
        var journaled = false
        do {
            loaded = try SessionCodec.load(from: store)
            if var session = loaded, let bytes = try journalStore.load() {
                if let ops = try RecordJournal.decode(bytes, for: session) {
                    for op in ops { session.record.apply(op) }
                    journaled = true
                }
                loaded = session
            }
        } catch {
            state.withLock { s in
                if s.generation == started { s.restoreError = error }
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
                release(&s) { entry in
                    absorbed.contains(entry.id) || (entry.sessionID != nil && entry.sessionID == loaded.sessionID)
                }
                s.replaceSession(with: loaded, onStorage: true)
                // A secret from the moment it is read back, as when it arrived: a server may quote it.
                SecretScrubber.remember(loaded.accessToken)
                s.updateSession { $0.absorbed = [] }
                s.journalEpoch = journaled ? loaded.epoch : nil
                s.journalBytes = 0
                s.journalOnStorage = journaled
            }
        }
    }

    /// Saves (or erases) the session; a failure is remembered and logged, because the server-side operation
    /// that led here has already succeeded and must not be reported as failed. The epoch in memory moves
    /// only with a save that worked, so journal lines keep pointing at what is really on storage.
    func persist(_ s: inout CaptureState) {
        do {
            if s.session != nil {
                // Under the store's lock: a process sharing the storage directory may have refreshed this
                // session's token since it was read here; its newer credential is kept, not written over.
                try store.withExclusiveAccess(timeoutMilliseconds: settings.requestTimeoutMs) { () throws(JumpError) in
                    if let saved = SessionCodec.savedElsewhere(in: store) { _ = adoptCredential(&s, from: saved) }
                    guard var next = s.session else { return }
                    next.epoch &+= 1
                    try SessionCodec.save(next, to: store)
                    s.updateSession { $0.epoch = next.epoch }
                }
                s.sessionOnStorage = true
            } else {
                try store.erase()
                s.sessionOnStorage = false
            }
            s.storageError = nil
            s.journalEpoch = nil
            s.journalBytes = 0
            // A journal of an earlier save is ignored anyway; removing it only saves space.
            if s.journalOnStorage, (try? journalStore.erase()) != nil { s.journalOnStorage = false }
        } catch {
            s.storageError = error
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
        if s.storageError != nil, s.session != nil { persist(&s) }
    }

    /// Makes an edit durable, then applies it: appended to the journal of the saved session, or, when there
    /// is no such journal to append to, the session saved whole. An edit that cannot be saved is not made.
    func commitEdit(_ s: inout CaptureState, _ op: RecordOp) throws(JumpError) {
        do {
            try appendToJournal(&s, JournalLine.bytes(op))
        } catch {
            let before = s.session?.record
            s.updateSession { $0.record.apply(op) }
            persist(&s)
            if let failure = s.storageError {
                if let before { s.updateSession { $0.record = before } }
                throw JumpError(.storage, "the edit was not made, because it could not be saved (\(failure.message))",
                                detail: failure.detail)
            }
            return
        }
        s.updateSession { $0.record.apply(op) }
        if s.journalBytes > (journalStore.appendsCheaply ? 1 << 20 : 64 << 10) { persist(&s) }
    }

    /// Journals operations already applied (the server's acknowledgements of a sync). When they cannot be
    /// journaled the session is saved whole; when that fails too they are known again at the next fetch
    /// (the server holds what they acknowledge).
    func journal(_ s: inout CaptureState, _ ops: [RecordOp]) {
        guard !ops.isEmpty, s.session != nil else { return }
        do {
            try appendToJournal(&s, RecordJournal.encode(ops))
        } catch {
            persist(&s)
        }
    }

    /// Appends to the journal of the session as saved; throws when the lines are not on storage after.
    /// Appends encoded journal lines (RecordJournal.encode) to the journal of the saved session.
    private func appendToJournal(_ s: inout CaptureState, _ bytes: [UInt8]) throws(JumpError) {
        // After a failed full save the journal's base on storage is older than the record in memory (a
        // fetch, an acknowledgement): lines appended to it might not replay, so the change saves whole.
        guard s.storageError == nil, s.sessionOnStorage, let epoch = s.session?.epoch else {
            throw JumpError(.storage, "the session on storage is not this one")
        }
        do throws(JumpError) {
            if s.journalEpoch == epoch {
                try journalStore.append(bytes)
                s.journalBytes += bytes.count
            } else {
                guard let session = s.session else { throw JumpError(.storage, "the session on storage is not this one") }
                let started = RecordJournal.header(for: session) + bytes
                s.journalOnStorage = true
                try journalStore.save(started)
                s.journalEpoch = session.epoch
                s.journalBytes = started.count
            }
        } catch {
            // A failed append may have left part of a line: nothing more is appended after it, the next
            // change saves the session whole (which starts a new journal).
            s.journalEpoch = nil
            s.sessionOnStorage = false
            Log.warning("the record journal could not be written: \(error.message)")
            throw error
        }
    }

    // MARK: - Quarantine

    /// The entries set aside; nil when the index cannot be read (it is then never written over).
    func loadQuarantine() -> [QuarantineEntry]? {
        do {
            guard let bytes = try quarantineStore.load() else { return [] }
            return try QuarantineEntry.decodeIndex(bytes)
        } catch {
            Log.warning("the quarantine index cannot be read: \(error.message)")
            return nil
        }
    }

    /// Sets the session on storage aside before a sign-in replaces it: `unreadable` moves the entries that
    /// could not be read, best effort (they are never merged into the new session); `replaced` saves another
    /// user's session whose edits are not synced yet (without its credentials), for that user's next
    /// sign-in, and throws when it cannot: those edits were acknowledged, so the sign-in must not go on.
    func quarantine(_ s: inout CaptureState, reason: QuarantineEntry.Reason, session: Session?, message: String) throws(JumpError) {
        let id = String(Secrets.sessionID().prefix(12))
        switch reason {
        case .unreadable:
            var keys: [String] = []
            var failure: JumpError?
            for name in [settings.sessionFileName, settings.journalFileName] where failure == nil {
                let key = settings.quarantinedName(id, of: name)
                do throws(JumpError) {
                    if try makeStore(name).moveAside(to: makeStore(key)) { keys.append(key) }
                } catch {
                    failure = error
                }
            }
            s.journalEpoch = nil
            s.journalOnStorage = false
            if !keys.isEmpty {
                s.quarantine.append(QuarantineEntry(id: id, reason: reason, uuid: nil, message: message, keys: keys))
                do throws(JumpError) { try saveQuarantineIndex(&s) } catch { failure = failure ?? error }
            }
            if let failure {
                // Written over, it would be gone: the app decides (sign out erases it; a restore retries it).
                throw JumpError(.storage, "the saved session cannot be read and cannot be set aside (\(failure.message)): "
                                + "retry the restore, or sign out to discard it, before signing in",
                                detail: ["reason": "unreadable_session"])
            }
        case .replaced:
            guard var kept = session else { return }
            kept.accessToken = "-"
            kept.refreshSecret = nil
            kept.pendingRefresh = nil
            let key = settings.quarantinedName(id, of: settings.sessionFileName)
            let entry = QuarantineEntry(id: id, reason: reason, uuid: kept.record.uuid,
                                        message: message, keys: [key], sessionID: kept.sessionID)
            do {
                try makeStore(key).save(SessionCodec.encode(kept))
                s.quarantine.append(entry)
                try saveQuarantineIndex(&s)
            } catch {
                s.quarantine.removeAll { $0.id == id }
                try? makeStore(key).erase()
                throw JumpError(.storage, "the signed-in user's edits are not synced and could not be set aside (\(error.message)): "
                                + "sync them or sign out before another user signs in", detail: error.detail)
            }
        }
    }

    private func saveQuarantineIndex(_ s: inout CaptureState) throws(JumpError) {
        if s.quarantineIndexUnreadable {
            guard let stored = loadQuarantine() else {
                throw JumpError(.storage, "the index of the sessions set aside cannot be read, so nothing is written over it")
            }
            let known = Set(s.quarantine.map(\.id))
            s.quarantine = stored.filter { !known.contains($0.id) } + s.quarantine
            s.quarantineIndexUnreadable = false
        }
        if s.quarantine.isEmpty { try quarantineStore.erase() } else { try quarantineStore.save(QuarantineEntry.encodeIndex(s.quarantine)) }
    }

    /// The unsynced edits that `uuid` left in a session set aside (the most recent readable one), and the
    /// entry they came from. The entry stays until the session holding the edits is saved (`release`): a
    /// crash in between must not lose them.
    func quarantinedEdits(_ s: CaptureState, uuid: String?) -> (UserRecord, String)? {
        guard let uuid else { return nil }
        for entry in s.quarantine.reversed() where entry.uuid == uuid {
            guard let key = entry.keys.first(where: { $0.hasSuffix(settings.sessionFileName) }),
                  let bytes = try? makeStore(key).load(),
                  var session = try? SessionCodec.decode(bytes) else { continue }
            if let journalKey = entry.keys.first(where: { $0.hasSuffix(settings.journalFileName) }),
               let journal = try? makeStore(journalKey).load(), let ops = (try? RecordJournal.decode(journal, for: session)) ?? nil {
                for op in ops { session.record.apply(op) }
            }
            return (session.record, entry.id)
        }
        return nil
    }

    /// Erases sessions set aside whose edits are now held by the saved session.
    func release(_ s: inout CaptureState, where settled: (QuarantineEntry) -> Bool) {
        let released = s.quarantine.filter(settled)
        guard !released.isEmpty else { return }
        for entry in released {
            for key in entry.keys { try? makeStore(key).erase() }
        }
        s.quarantine.removeAll(where: settled)
        do throws(JumpError) { try saveQuarantineIndex(&s) } catch {
            Log.warning("the quarantine index could not be saved: \(error.message)")
        }
    }

    /// Erases every session set aside.
    public func eraseQuarantine() throws(JumpError) {
        try state.withLock { s throws(JumpError) in
            for entry in s.quarantine {
                for key in entry.keys { try makeStore(key).erase() }
            }
            s.quarantine = []
            s.quarantineIndexUnreadable = false
            try quarantineStore.erase()
        }
    }
}
