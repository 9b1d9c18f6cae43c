import Testing
@testable import SignalPathKit

@Suite("ReplaySession: the play head, pause, speed and view moved by keys and time")
struct ReplaySessionTests {
    @Test("time moves the head by seconds × speed, not while paused, and stops at the end")
    func advance() {
        var session = ReplaySession(duration: 10, from: 2)
        session.advance(by: 1.5)
        #expect(session.position == 3.5)
        session.handle(.character(" "))
        session.advance(by: 4)
        #expect(session.position == 3.5 && session.paused)
        session.handle(.character(" "))
        session.handle(.character("+"))
        session.handle(.character("+"))
        #expect(session.speed == 2)
        session.advance(by: 2)
        #expect(session.position == 7.5)
        session.advance(by: 100)
        #expect(session.position == 10 && session.atEnd)
        session.extend(to: 12)
        #expect(!session.atEnd, "a followed file that grew")
        session.extend(to: 5)
        #expect(session.duration == 12, "a file never shrinks under the head")
    }

    @Test("the start is clamped into the file")
    func start() {
        #expect(ReplaySession(duration: 10, from: -3).position == 0)
        #expect(ReplaySession(duration: 10, from: 30).position == 10)
        #expect(ReplaySession(duration: -1).duration == 0)
    }

    @Test("arrows seek 5 s, shifted arrows, PgUp/PgDn and ↑/↓ 60 s, Home/End to the ends, all clamped; seeking marks a jump until time passes")
    func seeking() {
        var session = ReplaySession(duration: 100, from: 50)
        let moves: [(TerminalKey, Double)] = [
            (.right, 55), (.left, 50), (.shiftRight, 100), (.shiftLeft, 40), (.pageUp, 100), (.pageDown, 40), (.up, 100), (.down, 40),
            (.left, 35), (.home, 0), (.left, 0), (.end, 100), (.right, 100),
        ]
        for (key, expected) in moves {
            session.handle(key)
            #expect(session.position == expected, "\(key)")
            #expect(session.seeked)
        }
        session.advance(by: 0)
        #expect(!session.seeked)
    }

    @Test("+ and - (and = and _) step through 0.25 … 8× and stop at the ends")
    func speeds() {
        var session = ReplaySession(duration: 10)
        var seen: [Double] = []
        for _ in 0..<8 {
            session.handle(.character("="))
            seen.append(session.speed)
        }
        #expect(seen == [1.5, 2, 4, 8, 8, 8, 8, 8])
        for _ in 0..<7 { session.handle(.character("_")) }
        #expect(session.speed == 0.25)
        session.handle(.character("+"))
        #expect(session.speed == 0.5)
    }

    @Test("v cycles both → spectrum → spectrogram → both; q, Q, Esc and Ctrl-C quit; other keys do nothing")
    func viewAndQuit() {
        var session = ReplaySession(duration: 10, from: 1)
        var views: [ReplayView] = []
        for _ in 0..<3 {
            session.handle(.character("v"))
            views.append(session.view)
        }
        #expect(views == [.spectrum, .spectrogram, .both])
        let before = session
        session.handle(.character("x"))
        session.handle(.character("é"))
        #expect(session == before)
        for key: TerminalKey in [.character("q"), .character("Q"), .escape, .interrupt] {
            var quitting = session
            quitting.handle(key)
            #expect(quitting.quit, "\(key)")
        }
    }
}
