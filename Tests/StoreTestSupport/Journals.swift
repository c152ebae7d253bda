import Foundation
import StoreCommands

/// Opens a journal for writing, trying again for a moment while it is "in use": a child process
/// that another test is starting holds this process's descriptors, and so their locks, for an
/// instant between fork and exec.
package func openForWriting(
  _ path: String, header: JournalHeader, files: JournalFiles = .system
) throws(CommandError) -> Journal {
  var attempts = 0
  while true {
    do throws(CommandError) {
      return try Journal.openOrCreate(at: path, header: header, files: files)
    } catch {
      attempts += 1
      guard error.message.contains("is in use"), attempts < 50 else { throw error }
      usleep(20_000)
    }
  }
}
