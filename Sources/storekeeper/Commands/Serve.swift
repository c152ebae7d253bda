import ArgumentParser
import Foundation
import StoreCommands
import StoreDelivery
import StoreServer
import StoreSigning
import StoreSimulation
import StoreUtilities

/// `storekeeper serve [CONFIG]`: the session served over HTTP — the App Store Server API and a
/// control endpoint — for a backend's tests.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve the App Store Server API and a control endpoint over a live session.",
    discussion: """
      Prints "listening on http://HOST:PORT" once it listens, then logs each request (method, \
      path, status, milliseconds) and each notification delivery attempt to standard error; \
      SIGINT or SIGTERM stops it. The clock runs on with the wall clock unless --paused.

      The App Store Server API (Apple's paths, bodies and error codes, every signed value \
      signed as the session signs): transactions, appTransactions, history v1/v2, \
      subscriptions (statuses), refund lookup v2, order lookup, extend (single and mass, with \
      its status), consumption v1/v2, appAccountToken, finish, notifications test and \
      history; and the Retention Messaging API (images, messages, default messages, the \
      real-time URL, the performance test), whose URL "retention show" calls as the \
      subscription page does (http:// on the loopback interface too; https trusts \
      --notify-ca). Requests need Apple's bearer JWT (ES256); --api-key names the key it must \
      be signed with.

      POST /storekeeper/v1/commands applies command-language lines as run does and answers the \
      events as JSON lines (422 with the error event when a line cannot apply); \
      GET /storekeeper/v1/health answers 200. Notifications go to --notify-url and are retried \
      1, 12, 24, 48 and 72 hours (simulated) after a failed attempt; the commands \
      "set notify-fault drop|duplicate|delay <duration>|off" and "notify retry" inject what \
      real delivery does.
      """
  )

  @OptionGroup var session: LiveSessionOptions

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on; 0 picks a free one (printed).")
  var port = 8080

  @OptionGroup var signing: SigningOptions

  @OptionGroup var api: APIOptions

  func validate() throws {
    guard (0...65_535).contains(port) else {
      throw ValidationError("--port must be from 0 to 65535 (got \(port)).")
    }
  }

  func run() async throws {
    let key = try api.loadKey()
    let journalPath = try session.preparedJournal()
    var journaled = try openSession(
      configurationPath: session.configurationPath, journalPath: journalPath,
      start: session.startInstant, options: SessionOptions())
    try exiting { () throws(CommandError) in
      try LiveSessionOptions.apply(rate: session.rate, to: &journaled)
    }
    journaled.bundleID = signing.journaledBundleID
    let prepared = try signing.prepare(whenFull: .waitWhileAnswered(5))
    let signer = try prepared.signer ?? signing.makeSigner()
    let host = CommandHost(journaled)
    try signing.attachRetention(to: host, signer: OnDemand { signer })
    let sender = prepared.attachSender(to: host)
    if let sender {
      sender.listen { sent in
        if let error = sent.error { printError("storekeeper: \(error)".sanitizedForTerminal) }
      }
      // What became of each delivery, as it happens.
      let outbox = sender.outbox
      let said = DispatchQueue(label: "storekeeper.deliveries")
      outbox.wake = {
        said.async {
          for line in outbox.takeLines() { printError(line.text.sanitizedForTerminal) }
        }
      }
    }
    let served = ServedSession(
      host: host, sender: sender, signer: signer, running: !session.paused, key: key,
      controlToken: api.controlToken, wall: { wallClock })
    let server: SessionServer
    do {
      // The session goes to the server's loop, bound to it.
      server = try SessionServer(
        served, host: self.host, port: port, timeout: api.requestTime,
        log: { printError($0.text.sanitizedForTerminal) })
    } catch {
      throw api.cannotListen(host: self.host, port: port, error)
    }
    if key == nil { printError("storekeeper: " + APIOptions.anyTokenNotice) }
    // Written straight to the descriptor: a test reads it before anything else comes.
    let url = ServeAddress.url(host: self.host, port: server.port)
    try StandardStreams.writeOut(Array("listening on \(url)\n".utf8))
    printError("storekeeper: " + api.readyToken(bundleID: signer.bundleID))
    // Stop cleanly on SIGINT and SIGTERM; the journal was committed with every request.
    let (signals, signalled) = AsyncStream<Int32>.makeStream()
    var sources: [any DispatchSourceSignal] = []
    for signal in [SIGINT, SIGTERM] {
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
      source.setEventHandler {
        // A control request under way stops after its current command.
        server.requestStop()
        signalled.yield(signal)
      }
      source.resume()
      sources.append(source)
    }
    for await _ in signals { break }
    await server.close()
    printError("storekeeper: stopped")
  }
}
