/// The sessions set aside (QuarantineEntry): a saved session that could not be read, or another user's with
/// unsynced edits, is moved or copied here before a sign-in replaces it, never merged into it.
extension CaptureStorage {
    /// The entries set aside; nil when the index cannot be read (it is then never written over).
    func loadQuarantine() -> [QuarantineEntry]? {
        do {
            guard let bytes = try quarantineIndex.load() else { return [] }
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
    func setAside(_ st: inout State, reason: QuarantineEntry.Reason, session: Session?, message: String) throws(JumpError) {
        let id = String(Secrets.sessionID().prefix(12))
        switch reason {
        case .unreadable:
            // A session set aside keeps no credential: the secrets its file names go (best effort).
            if let item = itemOfSavedSession() { clearSecretItem(item) }
            var keys: [String] = []
            var failure: JumpError?
            for name in [settings.sessionFileName, settings.journalFileName] where failure == nil {
                let key = settings.quarantinedName(id, of: name)
                do throws(JumpError) {
                    if try entry(name).moveAside(to: entry(key)) { keys.append(key) }
                } catch {
                    failure = error
                }
            }
            st.journalEpoch = nil
            st.journalOnStorage = false
            // The file that needed the Secret Service is gone: the next session may be saved where this client can.
            if failure == nil { st.secretServiceNeeded = nil }
            if !keys.isEmpty {
                st.quarantine.append(QuarantineEntry(id: id, reason: reason, uuid: nil, message: message, keys: keys))
                do throws(JumpError) { try saveQuarantineIndex(&st) } catch { failure = failure ?? error }
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
            let quarantined = QuarantineEntry(id: id, reason: reason, uuid: kept.record.uuid,
                                              message: message, keys: [key], sessionID: kept.sessionID)
            do {
                try entry(key).save(SessionCodec.encode(kept))
                st.quarantine.append(quarantined)
                try saveQuarantineIndex(&st)
            } catch {
                st.quarantine.removeAll { $0.id == id }
                try? entry(key).erase()
                throw JumpError(.storage, "the signed-in user's edits are not synced and could not be set aside (\(error.message)): "
                                + "sync them or sign out before another user signs in", detail: error.detail)
            }
        }
    }

    private func saveQuarantineIndex(_ st: inout State) throws(JumpError) {
        if st.quarantineIndexUnreadable {
            guard let stored = loadQuarantine() else {
                throw JumpError(.storage, "the index of the sessions set aside cannot be read, so nothing is written over it")
            }
            let known = Set(st.quarantine.map(\.id))
            st.quarantine = stored.filter { !known.contains($0.id) } + st.quarantine
            st.quarantineIndexUnreadable = false
        }
        if st.quarantine.isEmpty { try quarantineIndex.erase() } else { try quarantineIndex.save(QuarantineEntry.encodeIndex(st.quarantine)) }
    }

    /// The unsynced edits that `uuid` left in a session set aside (the most recent readable one), and the
    /// entry they came from. The entry stays until the session holding the edits is saved (`release`): a
    /// crash in between must not lose them.
    func quarantinedEdits(_ st: State, uuid: String?) -> (UserRecord, String)? {
        guard let uuid else { return nil }
        for quarantined in st.quarantine.reversed() where quarantined.uuid == uuid {
            guard let key = quarantined.keys.first(where: { $0.hasSuffix(settings.sessionFileName) }),
                  let bytes = try? entry(key).load(),
                  var session = try? SessionCodec.decode(bytes) else { continue }
            if let journalKey = quarantined.keys.first(where: { $0.hasSuffix(settings.journalFileName) }),
               let journal = try? entry(journalKey).load(), let ops = (try? RecordJournal.decode(journal, for: session)) ?? nil {
                for op in ops { session.record.apply(op) }
            }
            return (session.record, quarantined.id)
        }
        return nil
    }

    /// Erases sessions set aside whose edits are now held by the saved session.
    func release(_ st: inout State, where settled: (QuarantineEntry) -> Bool) {
        let released = st.quarantine.filter(settled)
        guard !released.isEmpty else { return }
        for quarantined in released {
            for key in quarantined.keys { try? entry(key).erase() }
        }
        st.quarantine.removeAll(where: settled)
        do throws(JumpError) { try saveQuarantineIndex(&st) } catch {
            Log.warning("the quarantine index could not be saved: \(error.message)")
        }
    }

    /// Erases the sessions set aside that `matches` picks (a removed account's), the index with the last.
    func eraseQuarantine(_ st: inout State, where matches: (QuarantineEntry) -> Bool = { _ in true }) throws(JumpError) {
        for quarantined in st.quarantine where matches(quarantined) {
            for key in quarantined.keys { try entry(key).erase() }
        }
        st.quarantine.removeAll(where: matches)
        guard st.quarantine.isEmpty else { return try saveQuarantineIndex(&st) }
        st.quarantineIndexUnreadable = false
        try quarantineIndex.erase()
    }
}
