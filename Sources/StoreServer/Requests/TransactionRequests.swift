import StoreCommands
import StoreJSON
import StoreSimulation

/// The body of Set App Account Token (`PUT /inApps/v1/transactions/{id}/appAccountToken`): a
/// UUID, as Apple checks it (4000183 otherwise).
struct AppAccountTokenRequest {
  /// The token, in lowercase.
  var token: String

  init(body bytes: [UInt8]) throws(AppStoreError) {
    guard case .string(let token)? = try JSONObject(requestBody: bytes)["appAccountToken"],
      isUUID(token)
    else {
      throw AppStoreError(.invalidAppAccountTokenUUID)
    }
    self.token = token.lowercased()
  }
}

/// The body of Send Consumption Information (`PUT /inApps/v1|v2/transactions/consumption/{id}`):
/// the fields of its version, each checked as Apple checks it (``ConsumptionValidation``).
struct ConsumptionRequest {
  var fields: [ConsumptionInformation.Field]

  init(body bytes: [UInt8], version: String) throws(AppStoreError) {
    fields = try ConsumptionValidation.fields(JSONObject(requestBody: bytes), version: version)
  }
}
