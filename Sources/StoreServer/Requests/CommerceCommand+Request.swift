import StoreCommands
import StoreJSON
import StoreSimulation

extension CommerceCommand {
  /// The body of an Advanced Commerce server request (`POST /advancedCommerce/v1/…/{id}`) about
  /// `transaction`, read into Apple's typed request (``CommerceServerRequest``); Apple's error
  /// object, naming the field, for the first rule it breaks.
  init(
    _ operation: CommerceOperation, on transaction: Transaction, body bytes: [UInt8]
  ) throws(AppStoreError) {
    let body = try JSONObject(requestBody: bytes)
    do throws(CommandError) {
      try self.init(operation, .id(transaction.id), body: body)
    } catch {
      throw ServedSession.commerceError(error) ?? AppStoreError(.generalBadRequest)
    }
  }
}
