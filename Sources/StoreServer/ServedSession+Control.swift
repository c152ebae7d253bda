import StoreCommands
import StoreSimulation

extension ServedSession {
  /// `POST /storekeeper/v1/commands`: each line applied as `run` applies it; the events as JSON
  /// lines (``EventLines``, as `run` prints them), each written after the journal holds what
  /// explains it; 422 with the lines up to and including the `error` event when a line cannot
  /// be applied. An answer past a megabyte is streamed as it is made, with status 200 (an
  /// error is then its last line), so that memory stays flat however many events it holds.
  ///
  /// `?member=<name>` answers with what that family member's device sees (their transactions
  /// and statuses, the family's changes, the notifications about them); by default the
  /// purchaser's device, and every notification.
  ///
  /// `?customer=<name>` acts as that customer (one a `customer` line made) and answers with
  /// their events only; a request without it acts as the session's own customer and answers
  /// with every customer's events. Each request starts as the customer it names: a `customer`
  /// line in a body acts for the lines after it in that body.
  ///
  /// A request does at most ``requestBudget`` work, counted as the engine does it (a command,
  /// its events, and what a step back replays); the lines after are refused, to be sent again.
  ///
  /// A `retention show` that asks the developer's server is awaited outside the session: the
  /// request lets the session go (other requests and the clock go on), and `later` brings it
  /// back where the session lives with the answer, to apply that line and go on.
  func commands(_ request: ControlRequest, answer: StreamedAnswer, later: @escaping Later) {
    let device = request.device
    if let name = device.customer, host.session.customer(named: name) == nil {
      let error = host.session.noCustomer(named: name)
      return answer.fail(
        AppStoreError.notFound(customer: error.message).response)
    }
    let lines = EventLines(encoder: encoder) { buffer in
      buffer.withBytes { answer.write(Array($0)) }
      buffer.removeAll()
    }
    lines.device = device
    let run = ControlRun(lines: request.lines, events: lines, answer: answer)
    run.customer = device.customer
    proceed(run, later: later) { loop, host in loop.run({ run.next() }, on: host) }
  }

  /// Runs where the session lives: how a control request goes on with a piece of work.
  typealias Later = @Sendable (_ work: @escaping @Sendable (ServedSession) -> Void) -> Void

  /// Applies a request's lines from where it is (`step`), as its customer, its events to its
  /// answer; ends the answer, or lets the session go while a line waits for a call.
  private func proceed(
    _ run: ControlRun, later: @escaping Later,
    _ step: (ScriptLoop, CommandHost) -> ScriptLoop.End
  ) {
    controlLines = run.events
    host.attach(run.events)
    // The request's commands share the journal's commits (one at the end), but for those whose
    // notifications or lines must go out first.
    let commitsEach = host.commitsEachCommand
    host.commitsEachCommand = false
    defer {
      host.detach(run.events)
      controlLines = nil
      host.commitsEachCommand = commitsEach
    }
    if host.session.customer.name != run.customer {
      let acting = Command.customer(name: run.customer, number: nil).description
      if let error = host.perform(line: acting, number: 0).publishError {
        return fail(run.answer, journal: error)
      }
    }
    let end = step(ScriptLoop(shouldStop: stop(spent:)), host)
    var status = 200
    switch end {
    case .waiting(let wait):
      run.customer = host.session.customer.name
      do throws(CommandError) { try host.flush() } catch { return fail(run.answer, journal: error) }
      let number = nextWaitingRun
      nextWaitingRun += 1
      waitingRuns[number] = run
      Task {
        let exchange = await wait.call.exchange()
        later { served in
          guard let run = served.waitingRuns.removeValue(forKey: number) else { return }
          served.proceed(run, later: later) { loop, host in
            loop.resume(wait, with: exchange, { run.next() }, on: host) { _ in true }
          }
        }
      }
      return
    case .journalFailed(let error): return fail(run.answer, journal: error)
    case .refused: status = 422
    case .stopped(let line, let text, let why):
      let located = CommandError(
        "\(why): lines \(line) and after were not applied; send them again", command: text,
        line: line)
      run.events.error(located, time: now)
      status = stopping.withLockedValue { $0 } ? 503 : 422
    case .finished, .halted: break
    }
    do throws(CommandError) {
      try host.flush()
    } catch {
      return fail(run.answer, journal: error)
    }
    run.answer.finish(status: status)
  }

  /// Why the next line of a request is not applied: the server is stopping, or the request
  /// spent its budget.
  private func stop(spent: Int) -> String? {
    if stopping.withLockedValue({ $0 }) { return "the server is stopping" }
    guard spent >= requestBudget else { return nil }
    return "this request reached its budget of \(requestBudget) commands and events"
  }

  /// The journal could not be written: 500 when nothing went out yet, else the answer's last
  /// line says so.
  private func fail(_ answer: StreamedAnswer, journal error: CommandError) {
    answer.fail(AppStoreError(.generalInternal, message: "journal: \(error)").response)
  }
}

/// A control request under way, between the pieces of work it takes where the session lives
/// (a line waiting for the developer's server splits it: it waits in ``ServedSession``'s
/// table meanwhile, never leaving the session's thread).
final class ControlRun {
  private var lines: IndexingIterator<[String]>
  /// Where its events are written.
  let events: EventLines
  /// Its answer.
  let answer: StreamedAnswer
  /// The customer its lines act for now (a `customer` line in the body changes it).
  var customer: String?

  init(lines: [String], events: EventLines, answer: StreamedAnswer) {
    self.lines = lines.makeIterator()
    self.events = events
    self.answer = answer
  }

  /// The next line.
  func next() -> String? { lines.next() }
}
