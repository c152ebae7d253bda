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
  func commands(_ body: [UInt8], device: DeviceFilter, answer: StreamedAnswer) {
    if let name = device.customer, host.session.customer(named: name) == nil {
      let error = host.session.noCustomer(named: name)
      return answer.fail(
        AppStoreError(status: 404, code: 4_040_000, message: "?customer=: \(error.message)")
          .response)
    }
    let lines = EventLines(encoder: encoder) { buffer in
      buffer.withBytes { answer.write(Array($0)) }
      buffer.removeAll()
    }
    lines.device = device
    controlLines = lines
    host.attach(lines)
    // The request's commands share the journal's commits (one at the end), but for those whose
    // notifications or lines must go out first.
    let commitsEach = host.commitsEachCommand
    host.commitsEachCommand = false
    defer {
      host.detach(lines)
      controlLines = nil
      host.commitsEachCommand = commitsEach
    }
    if host.session.customer.name != device.customer {
      let acting = Command.customer(name: device.customer, number: nil).description
      if let error = host.perform(line: acting, number: 0).publishError {
        return fail(answer, journal: error)
      }
    }
    var script = Command.scriptLines(body).makeIterator()
    let end = ScriptLoop(shouldStop: stop(spent:)).run({ script.next() }, on: host)
    var status = 200
    switch end {
    case .journalFailed(let error): return fail(answer, journal: error)
    case .refused: status = 422
    case .stopped(let line, let text, let why):
      let located = CommandError(
        "\(why): lines \(line) and after were not applied; send them again", command: text,
        line: line)
      lines.error(located, time: now)
      status = stopping.withLockedValue { $0 } ? 503 : 422
    case .finished, .halted: break
    }
    do throws(CommandError) {
      try host.flush()
    } catch {
      return fail(answer, journal: error)
    }
    answer.finish(status: status)
  }

  /// The answer to a control request that is not (or no longer) answered as a whole: a sent
  /// command's answer (the tests', the inspector's).
  func commands(_ body: [UInt8], device: DeviceFilter = .init()) -> ServerResponse {
    var response: ServerResponse?
    commands(
      body, device: device,
      answer: StreamedAnswer(
        contentType: "application/x-ndjson", threshold: .max, reply: { response = $0 }))
    return response ?? SessionWork.unavailable("the request was not answered")
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
    answer.fail(AppStoreError(status: 500, code: 5_000_000, message: "journal: \(error)").response)
  }
}
