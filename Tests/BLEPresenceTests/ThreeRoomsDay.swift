import BLEPresence

extension ThreeRooms {
    /// One hour in the flat for three people whose devices advertise at 1 Hz, 5 Hz and 10 Hz.
    ///
    /// They walk room to room, stand (at least 2 m inside a room) with their back to their room's
    /// receiver, so that a neighbouring room's receiver hears them nearly as well or better, and
    /// leave the flat for 5–15 minutes.
    static let day: [Person] = [
        Person(
            identity: "alice", start: Point(x: -40, y: 2),
            steps: [
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: 2.5, y: 1.5)),
                .stand(seconds: 240, facing: Point(x: 0.5, y: 3.5)),
                .walk(to: Point(x: 7.5, y: 2)), .stand(seconds: 300, facing: Point(x: 0, y: 2)),
                .walk(to: Point(x: 12, y: 1.5)), .stand(seconds: 600, facing: Point(x: 14.5, y: 3.5)),
                .walk(to: Point(x: 3, y: 2)), .stand(seconds: 120, facing: Point(x: 0, y: 2)),
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: -40, y: 2)), .away(seconds: 900),
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: 13, y: 2)),
                .stand(seconds: 600, facing: Point(x: 10, y: 2)), .stand(seconds: 800, facing: Point(x: 14.5, y: 3.5)),
            ],
            interval: 1, loss: 0.2),
        Person(
            identity: "bob", start: Point(x: 8, y: 1),
            steps: [
                .stand(seconds: 400, facing: Point(x: 9.5, y: 2)),
                .walk(to: Point(x: 3, y: 3)), .stand(seconds: 200, facing: Point(x: 3, y: 0)),
                .walk(to: Point(x: 11, y: 2)), .stand(seconds: 500, facing: Point(x: 15, y: 2)),
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: -40, y: 2)), .away(seconds: 600),
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: 8, y: 3)), .stand(seconds: 1800, facing: Point(x: 9.5, y: 2)),
            ],
            interval: 0.2, loss: 0.3),
        Person(
            identity: "carol", start: Point(x: -20, y: 2),
            steps: [
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: 4, y: 1)), .stand(seconds: 60, facing: Point(x: 4.5, y: 0)),
                .walk(to: Point(x: 7.5, y: 3)), .stand(seconds: 30, facing: Point(x: 9.5, y: 2)),
                .walk(to: Point(x: 12.5, y: 3)), .stand(seconds: 90, facing: Point(x: 10, y: 0)),
                .walk(to: Point(x: 7, y: 1)), .stand(seconds: 45, facing: Point(x: 5, y: 1)),
                .walk(to: Point(x: 2, y: 2)), .stand(seconds: 120, facing: Point(x: 0, y: 2)),
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: -30, y: 2)), .away(seconds: 300),
                .walk(to: Point(x: 0, y: 2)), .walk(to: Point(x: 12, y: 2)), .stand(seconds: 200, facing: Point(x: 14, y: 3)),
                .walk(to: Point(x: 8, y: 2)), .stand(seconds: 400, facing: Point(x: 9, y: 0)),
                .walk(to: Point(x: 3, y: 1)), .stand(seconds: 150, facing: Point(x: 1, y: 3)),
                .walk(to: Point(x: 13, y: 3)), .stand(seconds: 2000, facing: Point(x: 14, y: 0)),
            ],
            interval: 0.1, loss: 0.1),
    ]

    /// The day's length in seconds.
    static let dayLength = 3600.0

    /// The day's sightings and truth from the fixed seed every test uses.
    static let world = generate(day, until: dayLength, seed: 0x5EED_2026)

    /// `algorithm` run over the day and scored against its truth.
    static func score(_ algorithm: some PresenceAlgorithm) -> PresenceScore {
        let run = PresenceRunner().run(algorithm, observations: world.observations, from: 0, until: dayLength)
        return PresenceScorer().score(run.algorithm, reported: run.timelines, truth: world.truth, from: 0, until: dayLength)
    }
}
