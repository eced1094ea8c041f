// The host's one timer: armed for the cores' earliest deadline after every change.

extension Host {
    /// Re-arms the single timer task for the cores' earliest deadline. A timer, not
    /// polling: the task sleeps until exactly that deadline and is replaced whenever the
    /// earliest deadline changes.
    func armTimer() {
        // A closed host keeps no timer: its transport is gone, so a command still waiting
        // for its answer would only "time out" when the clock next leaps (a simulation
        // finishing runs its sleepers), logging a failure the controller never had.
        guard closed == nil else {
            timer?.cancel()
            timer = nil
            timerDeadline = nil
            return
        }
        // Runs after every packet: a running minimum, without building arrays.
        var deadline: HostTime?
        func consider(_ candidate: HostTime?) {
            guard let candidate else { return }
            if let current = deadline, current <= candidate { return }
            deadline = candidate
        }
        consider(driver.nextDeadline)
        consider(gap.nextDeadline)
        consider(attNextDeadline)
        consider(smpNextDeadline)
        consider(privacyNextDeadline)
        for index in links.values.indices { consider(links.values[index].nextDeadline) }
        guard deadline != timerDeadline else { return }
        timer?.cancel()
        timerDeadline = deadline
        guard let deadline else {
            timer = nil
            return
        }
        let wake = originMicroseconds + deadline
        let clock = self.clock
        timer = Task(executorPreference: executor) { [weak self] in
            do {
                try await clock.sleep(untilMicroseconds: wake)
            } catch {
                return
            }
            await self?.timerFired()
        }
    }

    func timerFired() {
        guard closed == nil else { return }
        timerDeadline = nil
        timer = nil
        let time = now
        carryOut(driver.timerFired(at: time))
        apply(gap.timerFired(at: time))
        for handle in links.keys.sorted() {
            if let outputs = links[handle]?.timerFired(at: time) { carryOut(outputs, link: handle) }
        }
        attTimerFired(at: time)
        smpTimerFired(at: time)
        privacyTimerFired(at: time)
        armTimer()
    }
}
