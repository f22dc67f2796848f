import Glibc
@testable import JumpCore
@testable import JumpRuntime
import Testing

/// The asynchronous runtime's parts, on their own (docs/design-io.md): fibers on the pool, the I/O loop's
/// clock, gates, one-shot values and refresh flights. Every wait here has a bound, so a broken runtime fails
/// a test instead of hanging the run.
@Suite struct FiberTests {
    /// Runs `count` jobs on fibers and waits for all of them (false when they did not finish in time).
    private func onFibers(_ count: Int, seconds: Int = 20, _ job: @escaping @Sendable (Int) -> Void) -> Bool {
        let done = Semaphore()
        for index in 0..<count {
            FiberPool.shared.start {
                job(index)
                done.signal()
            }
        }
        for _ in 0..<count where !done.wait(milliseconds: seconds * 1000) { return false }
        return true
    }

    @Test func aJobRunsOnAFiberAndHostCodeOnTheThreadStack() {
        let seen = Lock<(onFiber: Bool, hostOnFiber: Bool)?>(nil)
        #expect(onFibers(1) { _ in
            let hostOnFiber = Fiber.onThreadStack { Fiber.isRunning }
            seen.withLock { $0 = (Fiber.isRunning, hostOnFiber) }
        })
        #expect(seen.withLock { $0?.onFiber } == true)
        #expect(seen.withLock { $0?.hostOnFiber } == false)
        #expect(Fiber.isRunning == false)
    }

    @Test func parkedFibersHoldNoThreadAndWakeAtTheirTime() {
        let started = Clock.monotonicMilliseconds()
        // Far more fibers than threads, each parked 200 ms: together they take about 200 ms, not 200 ms each.
        #expect(onFibers(200) { _ in Fiber.pause(milliseconds: 200) })
        let took = Clock.monotonicMilliseconds() - started
        #expect(took >= 200)
        #expect(took < 10_000)
    }

    @Test func aFiberThatRanHostCodeGoesOnOnItsThread() {
        let moved = Lock(0)
        #expect(onFibers(64) { index in
            let before = Fiber.onThreadStack { pthread_self() }
            for _ in 0..<3 {
                Fiber.pause(milliseconds: 5 + index % 7)
                let after = Fiber.onThreadStack { pthread_self() }
                if pthread_equal(before, after) == 0 { moved.withLock { $0 += 1 } }
            }
        })
        #expect(moved.withLock { $0 } == 0)
    }

    @Test func aBlockedThreadDoesNotHoldUpOtherFibers() {
        let pool = FiberPool.shared
        let release = Semaphore()
        let blocked = pool.threadLimit
        // Every thread the pool has while nothing blocks is blocked in host code ...
        for _ in 0..<blocked {
            pool.start { _ = Fiber.onThreadStack { release.wait(milliseconds: 10_000) } }
        }
        // ... and a new fiber still runs at once.
        let started = Clock.monotonicMilliseconds()
        let ran = onFibers(1, seconds: 5) { _ in }
        let took = Clock.monotonicMilliseconds() - started
        for _ in 0..<blocked { release.signal() }
        #expect(ran)
        #expect(took < 3_000)
    }

    @Test func theLoopWakesAWakerAtItsDeadline() {
        let woken = Lock<Int64?>(nil)
        let started = Clock.monotonicMilliseconds()
        #expect(onFibers(1) { _ in
            _ = Fiber.park(until: Clock.monotonicMilliseconds() + 150) { _ in }  // nothing else wakes it
            woken.withLock { $0 = Clock.monotonicMilliseconds() }
        })
        let at = woken.withLock { $0 } ?? 0
        #expect(at - started >= 150)
    }

    @Test func aGateLetsOneThroughAtATime() {
        let gate = Gate(waitMilliseconds: 10_000)
        let inside = Lock((now: 0, most: 0))
        #expect(onFibers(40) { _ in
            try? gate.withLock { _ throws(JumpError) in
                inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                Fiber.pause(milliseconds: 1)
                inside.withLock { $0.now -= 1 }
            }
        })
        #expect(inside.withLock { $0.most } == 1)
    }

    @Test func aGateWaitEndsAtItsDeadline() {
        let gate = Gate(waitMilliseconds: 200, purpose: "the test's holder")
        let holding = Semaphore()
        let release = Semaphore()
        let outcomes = Lock<[JumpStatus]>([])
        FiberPool.shared.start {
            try? gate.withLock { _ throws(JumpError) in
                holding.signal()
                _ = Fiber.onThreadStack { release.wait(milliseconds: 5_000) }
            }
        }
        #expect(holding.wait(milliseconds: 5_000))
        // A fiber and a thread both wait, and both give up at the deadline with a timeout.
        #expect(onFibers(1) { _ in
            do throws(JumpError) { try gate.withLock { _ throws(JumpError) in } } catch { outcomes.withLock { $0.append(error.status) } }
        })
        do throws(JumpError) { try gate.withLock { _ throws(JumpError) in } } catch { outcomes.withLock { $0.append(error.status) } }
        release.signal()
        #expect(outcomes.withLock { $0 } == [.timeout, .timeout])
        // The gate still works once its holder has left: the waiters that gave up are out of line.
        let passed = Lock(false)
        #expect(onFibers(1) { _ in try? gate.withLock { _ throws(JumpError) in passed.withLock { $0 = true } } })
        #expect(passed.withLock { $0 })
    }

    /// A fiber takes `lock` and holds it while its thread runs host code that waits: signal the semaphore
    /// returned to let it go. Returns once the lock is held.
    private func heldInHostCode<Value>(_ lock: ParkingLock<Value>) -> JumpRuntime.Semaphore {
        let holding = Semaphore(), release = Semaphore()
        FiberPool.shared.start {
            lock.withLock { _ in
                holding.signal()
                _ = Fiber.onThreadStack { release.wait(milliseconds: 10_000) }
            }
        }
        #expect(holding.wait(milliseconds: 5_000))
        return release
    }

    @Test func aParkingLockExcludesFibersAndThreadsAlike() {
        let lock = ParkingLock(0)
        let inside = Lock((now: 0, most: 0))
        let step = { @Sendable in
            lock.withLock { count in
                inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                Fiber.pause(milliseconds: 1)  // a holder may park
                count += 1
                inside.withLock { $0.now -= 1 }
            }
        }
        let threads = (0..<4).map { _ in WorkerThread.start(named: "lock-test") { for _ in 0..<10 { step() } } }
        #expect(onFibers(40) { _ in step() })
        for _ in 0..<200 where lock.withLock({ $0 }) < 80 { usleep(10_000) }
        #expect(threads.allSatisfy { $0 })
        #expect(lock.withLock { $0 } == 80)
        #expect(inside.withLock { $0.most } == 1)
    }

    @Test func aParkingLockLetsWaitersInInTheOrderTheyCame() {
        let lock = ParkingLock([Int]())
        let release = heldInHostCode(lock)
        let done = Semaphore()
        for index in 0..<8 {
            let queued = Semaphore()
            FiberPool.shared.start {
                queued.signal()
                lock.withLock { $0.append(index) }
                done.signal()
            }
            #expect(queued.wait(milliseconds: 5_000))
            usleep(20_000)  // in line before the next one starts
        }
        release.signal()
        for _ in 0..<8 { #expect(done.wait(milliseconds: 10_000)) }
        #expect(lock.withLock { $0 } == Array(0..<8))
    }

    @Test func aParkingLockWaitEndsAtItsDeadlineOrCancellation() {
        let lock = ParkingLock(0)
        let release = heldInHostCode(lock)
        let outcomes = Lock<[String]>([])
        let attempt = { @Sendable (deadline: Int64?, cancellation: Cancellation?) in
            do throws(JumpError) {
                try lock.withLock(deadline: deadline, cancellation: cancellation,
                                  ended: { end -> JumpError in JumpError(end == .deadline ? .timeout : .cancelled, "ended") }) { (count: inout Int) throws(JumpError) in count += 1 }
                outcomes.withLock { $0.append("held") }
            } catch {
                outcomes.withLock { $0.append(error.status == .timeout ? "deadline" : error.status == .cancelled ? "cancelled" : "?") }
            }
        }
        // A fiber and a thread give up at the deadline; a fiber and a thread waiting without one are cancelled.
        let started = Clock.monotonicMilliseconds()
        #expect(onFibers(1) { _ in attempt(Clock.monotonicMilliseconds() + 150, nil) })
        attempt(Clock.monotonicMilliseconds() + 150, nil)
        #expect(Clock.monotonicMilliseconds() - started >= 300)
        let onFiber = Cancellation(), onThread = Cancellation()
        let cancelled = Semaphore()
        FiberPool.shared.start { attempt(nil, onFiber); cancelled.signal() }
        _ = WorkerThread.start(named: "lock-test") { attempt(nil, onThread); cancelled.signal() }
        usleep(100_000)
        onFiber.cancel()
        onThread.cancel()
        #expect(cancelled.wait(milliseconds: 5_000))
        #expect(cancelled.wait(milliseconds: 5_000))
        #expect(outcomes.withLock { $0 } == ["deadline", "deadline", "cancelled", "cancelled"])
        // The waiters that gave up are out of line: the next one gets in once the holder leaves.
        release.signal()
        #expect(onFibers(1) { _ in attempt(Clock.monotonicMilliseconds() + 5_000, nil) })
        #expect(outcomes.withLock { $0.last } == "held")
        #expect(lock.withLock { $0 } == 1)
    }

    @Test func aParkingLockPublishesWhatItHandsOver() {
        let seen = Lock<[(Int, Bool)]>([])
        let lock = ParkingLock(0, handedOver: { value in seen.withLock { $0.append((value, true)) } },
                               freed: { seen.withLock { $0.append((-1, false)) } })
        lock.withLock { $0 = 1 }
        #expect(lock.withLockIfFree { $0 } == 1)
        let holding = Semaphore(), release = Semaphore(), done = Semaphore()
        FiberPool.shared.start {
            lock.withLock { value in
                value = 2
                holding.signal()
                _ = Fiber.onThreadStack { release.wait(milliseconds: 10_000) }
            }
        }
        #expect(holding.wait(milliseconds: 5_000))
        #expect(lock.withLockIfFree { $0 } == nil)  // held: no wait
        FiberPool.shared.start { lock.withLock { $0 = 3 }; done.signal() }
        usleep(50_000)
        release.signal()
        #expect(done.wait(milliseconds: 5_000))
        let releases = seen.withLock { $0 }
        #expect(releases.map { $0.0 } == [-1, -1, 2, -1])  // free, free, handed over with 2, free
        #expect(releases.map { $0.1 } == [false, false, true, false])
    }

    @Test func aSessionStateLockAnswersDuringASaveWithTheStateItFound() {
        let state = SessionStateLock(1)
        let saving = Semaphore(), release = Semaphore(), done = Semaphore()
        FiberPool.shared.start {
            state.withLock { value in
                value = 2  // made before the save: published with it
                state.whileSaving(&value) { value in
                    saving.signal()
                    _ = Fiber.onThreadStack { release.wait(milliseconds: 10_000) }  // a slow host save
                    value = 3  // made by the save: not seen until it ends
                }
            }
            done.signal()
        }
        #expect(saving.wait(milliseconds: 5_000))
        let started = Clock.monotonicMilliseconds()
        let seen = state.answer { $0 }
        #expect(Clock.monotonicMilliseconds() - started < 1_000)
        #expect(seen == 2)
        release.signal()
        #expect(done.wait(milliseconds: 5_000))
        #expect(state.answer { $0 } == 3)
    }

    @Test func aOneShotWakesEveryWaiterOrTimesOut() {
        let shot = OneShot<Int>()
        let got = Lock<[Int]>([])
        let waiting = Semaphore()
        for _ in 0..<10 {
            FiberPool.shared.start {
                waiting.signal()
                if let value = shot.wait(until: Clock.monotonicMilliseconds() + 10_000) { got.withLock { $0.append(value) } }
            }
        }
        for _ in 0..<10 { #expect(waiting.wait(milliseconds: 5_000)) }
        shot.set(7)
        #expect(shot.wait(until: Clock.monotonicMilliseconds() + 1_000) == 7)  // a thread, set already
        for _ in 0..<100 where got.withLock({ $0.count }) < 10 { usleep(20_000) }
        #expect(got.withLock { $0 } == Array(repeating: 7, count: 10))
        let never = OneShot<Int>()
        let started = Clock.monotonicMilliseconds()
        #expect(never.wait(until: started + 100) == nil)
        #expect(Clock.monotonicMilliseconds() - started >= 100)
        let onFiber = Lock<Int?>(1)
        #expect(onFibers(1) { _ in onFiber.withLock { $0 = never.wait(until: Clock.monotonicMilliseconds() + 100) } })
        #expect(onFiber.withLock { $0 } == nil)
    }

    @Test func aRefreshFlightSharesItsOutcomeAndBoundsTheWait() throws {
        let flight = RefreshFlight()
        let outcomes = Lock<[String]>([])
        #expect(onFibers(5) { index in
            if index == 0 {
                Fiber.pause(milliseconds: 50)
                _ = try? RefreshFlight.run({ .lead(flight, ()) }, waitMilliseconds: 1_000) { _ in .success("fresh") }
            } else if let token = try? RefreshFlight.run({ () throws(JumpError) -> RefreshFlight.Step<Void> in .wait(flight) },
                                                         waitMilliseconds: 5_000, perform: { _ in .success("other") }) {
                outcomes.withLock { $0.append(token) }
            }
        })
        #expect(outcomes.withLock { $0 } == ["fresh", "fresh", "fresh", "fresh"])
        let stuck = RefreshFlight()
        let error = #expect(throws: JumpError.self) { try stuck.wait(milliseconds: 100) }
        #expect(error?.status == .timeout)
    }

    @Test func aFlightItsLeadersDeadlineEndedIsLedAgainByAFollower() {
        let first = RefreshFlight()
        let decisions = Lock(0)
        let leaderSaw = Lock<String?>(nil)
        let leading = Semaphore(), leaderDone = Semaphore()
        _ = WorkerThread.start(named: "leader") {
            defer { leaderDone.signal() }
            do throws(JumpError) {
                _ = try RefreshFlight.run({ .lead(first, ()) }, waitMilliseconds: 1_000) { _ in
                    leading.signal()
                    usleep(100_000)
                    return .failure(JumpError(.timeout, "out of time", detail: ["reason": "operation_timeout"]))
                }
            } catch {
                leaderSaw.withLock { $0 = error.detail["reason"]?.stringValue }
            }
        }
        #expect(leading.wait(milliseconds: 5_000))
        // The follower waits for the leader's flight, hears that its leader ran out of time, decides again and leads.
        let token = try? RefreshFlight.run({ () throws(JumpError) -> RefreshFlight.Step<Void> in
            decisions.withLock { n in
                n += 1
                return n == 1 ? .wait(first) : .lead(RefreshFlight(), ())
            }
        }, waitMilliseconds: 5_000) { _ in .success("its own") }
        #expect(token == "its own")
        #expect(decisions.withLock { $0 } == 2)
        #expect(leaderDone.wait(milliseconds: 5_000))
        #expect(leaderSaw.withLock { $0 } == "operation_timeout")
    }

    @Test func aCallsDeadlineBoundsEveryWaitInsideItOnFibersAndThreads() {
        let gate = Gate(waitMilliseconds: 10_000, purpose: "the test's holder")
        let release = Semaphore()
        let holding = Semaphore()
        FiberPool.shared.start {
            try? gate.withLock { _ in
                holding.signal()
                _ = FiberPool.blocking { release.wait(milliseconds: 10_000) }
            }
        }
        #expect(holding.wait(milliseconds: 5_000))
        let outcomes = Lock<[String]>([])
        let waitAtTheGate = { @Sendable in
            let started = Clock.monotonicMilliseconds()
            do throws(JumpError) {
                try CallDeadline.within(milliseconds: 200) { () throws(JumpError) in try gate.withLock { _ in } }
                outcomes.withLock { $0.append("entered") }
            } catch {
                let took = Clock.monotonicMilliseconds() - started
                outcomes.withLock { $0.append("\(error.detail["reason"]?.stringValue ?? "?") \(took < 2_000)") }
            }
        }
        #expect(onFibers(2) { _ in waitAtTheGate() })  // each fiber keeps its own deadline on the shared thread
        waitAtTheGate()
        release.signal()
        #expect(outcomes.withLock { $0 } == Array(repeating: "operation_timeout true", count: 3))
        #expect(CallDeadline.current == nil)  // restored once the call ended
        // A call inside another keeps the earlier deadline.
        CallDeadline.within(milliseconds: 100) {
            let outer = CallDeadline.current
            CallDeadline.within(milliseconds: 60_000) { #expect(CallDeadline.current == outer) }
        }
    }
}
