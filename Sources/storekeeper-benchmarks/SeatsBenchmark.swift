import ArgumentParser
import Foundation
import StoreSimulation

/// A developer-hosted multiseat subscription's claims: the cost of a claim, a retry, a read of
/// the seats and an unclaim at growing numbers of claims; an Apple-hosted one's members: a
/// join, a renewal of every member and a removal (each should stay flat).
struct SeatsBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "seats",
    abstract: "Claim, retry, read and unclaim seats at 1,000 and 10,000 claims; invite, renew and "
      + "remove 100 and 1,000 members.")

  @Option(parsing: .upToNextOption, help: "The numbers of claims.")
  var claims = [1_000, 10_000]

  @Option(parsing: .upToNextOption, help: "The numbers of Apple-hosted members.")
  var members = [100, 1_000]

  func run() throws {
    try runClaims()
    for count in members { try runMembers(count) }
  }

  /// Members: each joins (a customer made, an ASSIGNED transaction), every one renews with the
  /// purchaser, each is removed.
  private func runMembers(_ count: Int) throws {
    let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
    var session = Session(
      configuration: Renewals.configuration(groups: 1), start: start, options: .unbounded)
    var options = PurchaseOptions()
    options.seats = count
    try session.buy("bench.0", options) { _ in }
    let clock = ContinuousClock()
    let joining = try clock.measure {
      for member in 0..<count { try session.changeSeats(.invite(member: "m\(member)")) { _ in } }
    }
    var renewals = 0
    let renewing = try clock.measure {
      try session.advance(to: start.adding(milliseconds: 32 * 86_400_000)) { event in
        if case .transaction(let t, _) = event.kind, t.ownership == .assigned { renewals += 1 }
      }
    }
    let removing = try clock.measure {
      for member in 0..<count { try session.changeSeats(.remove(member: "m\(member)")) { _ in } }
    }
    func each(_ duration: Duration) -> String {
      String(format: "%.1f µs", duration.seconds * 1e6 / Double(count))
    }
    print(
      "seats: \(count) members: join \(each(joining)), renewal \(each(renewing)) "
        + "(\(renewals) renewed), removal \(each(removing)) each")
  }

  private func runClaims() throws {
    for count in claims {
      let start = Instant(iso8601: "2026-01-01T00:00:00Z")!
      var session = Session(
        configuration: Renewals.configuration(groups: 1), start: start, options: .unbounded)
      try session.changeSeats(.invitations(.developer)) { _ in }
      var options = PurchaseOptions()
      options.seats = count
      try session.buy("bench.0", options) { _ in }
      let requests = (0..<count).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
      let clock = ContinuousClock()
      let claiming = try clock.measure {
        for request in requests {
          try session.changeSeats(.claim(0, request: request, appTransactionID: nil)) { _ in }
        }
      }
      let retrying = try clock.measure {
        for request in requests {
          try session.changeSeats(.claim(0, request: request, appTransactionID: nil)) { _ in }
        }
      }
      var ids: [String] = []
      let reading = clock.measure {
        ids = session.seatGroup(ofTransaction: 0)?.claims.map(\.id) ?? []
      }
      let unclaiming = try clock.measure {
        for id in ids { try session.changeSeats(.unclaim(0, claim: id)) { _ in } }
      }
      func each(_ duration: Duration) -> String {
        String(format: "%.1f µs", duration.seconds * 1e6 / Double(count))
      }
      print(
        "seats: \(count) claims: claim \(each(claiming)), retry \(each(retrying)), unclaim "
          + "\(each(unclaiming)) each; Get Seat Info's list \(String(format: "%.2f", reading.seconds * 1000)) ms"
      )
    }
  }
}
