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
  /// A request does at most ``requestBudget`` work, counted as the engine does it (a command,
  /// its events, and what a step back replays); the lines after are refused, to be sent again.
  func commands(_ body: [UInt8], member: String?, answer: StreamedAnswer) {
    let lines = EventLines(encoder: encoder) { buffer in
      buffer.withBytes { answer.write(Array($0)) }
      buffer.removeAll()
    }
    lines.member = member
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
  func commands(_ body: [UInt8], member: String? = nil) -> ServerResponse {
    var response: ServerResponse?
    commands(
      body, member: member,
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
