import Hummingbird

/// Multiseat's seat endpoints (App Store Server API 1.23): Get Seat Info, Claim Seat, Unclaim
/// Seat and Associate Seat, for subscriptions whose invitations the app hosts.
struct SeatController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    api.get("groups/v1/transactions/:transactionId/seats", use: info)
      .post("groups/v1/transactions/:transactionId/seats", use: claim)
      .delete("groups/v1/transactions/:transactionId/seats/:seatClaimId", use: unclaim)
      .post("groups/v1/transactions/:transactionId/seats/:seatClaimId/associate", use: associate)
  }

  @Sendable func info(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.read(request, context) { reader, _ in
      reader.json(try ServedSession.seatInfo(reader, id))
    }
  }

  @Sendable func claim(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.write(request, context) { served, whole in
      let transaction = try served.reader.transaction(id)
      return served.json(try served.claimSeat(transaction, SeatClaimRequest(body: whole.body)))
    }
  }

  @Sendable func unclaim(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    let claim = context.parameters.get("seatClaimId") ?? ""
    return try await access.write(request, context) { served, _ in
      try served.unclaimSeat(id, claim: claim)
      return ServerResponse(status: 200, body: [])
    }
  }

  @Sendable func associate(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    let claim = context.parameters.get("seatClaimId") ?? ""
    return try await access.write(request, context) { served, whole in
      let transaction = try served.reader.transaction(id)
      try served.associateSeat(
        transaction, claim: claim, SeatAssociationRequest(body: whole.body))
      return ServerResponse(status: 200, body: [])
    }
  }
}
