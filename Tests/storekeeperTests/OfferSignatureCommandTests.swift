import Foundation
import StoreTestSupport
import Testing

/// Promotional offer signatures through the real binary: made by Apple's library and by
/// `offer-signature sign`, checked by `offer-signature verify` and by `buy` in a script;
/// `keys generate`.
@Suite struct OfferSignatureCommandTests {
  static let product = "socialfeed.monthly"
  static let offer = "socialfeed.monthly.loyalty"

  /// A copy of FoodTruck with a key of its own, in a scratch folder.
  func configuration(_ scratch: SigningScratch) throws -> String {
    let path = scratch.folder.appendingPathComponent("Shop.storekit").path
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit").path, toPath: path)
    let made = try scratch.run(["keys", "generate", path, "--replace"])
    try #require(made.status == 0, "\(made.stderr)")
    return path
  }

  /// `buy` lines for a subscriber taking the offer with `signature`; the last purchase result.
  func buy(_ scratch: SigningScratch, _ config: String, _ signature: String) throws -> [String: Any]
  {
    let ran = try scratch.run(
      ["run", config, "-"],
      stdin: "buy socialfeed.yearly\nbuy \(Self.product) offer=promo:\(Self.offer) \(signature)\n")
    #expect(ran.status == 0, "\(ran.stderr)")
    return try #require(
      try jsonLines(ran.stdout).last { $0["event"] as? String == "purchaseResult" })
  }

  @Test func keysGenerateAddsAKeyPairInXcodesFormattingAndKeepsAnExistingOne() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let config = try configuration(scratch)
    let text = try String(contentsOfFile: config, encoding: .utf8)
    #expect(text.contains("\"subscriptionOffersKeyPair\" : {"))
    #expect(try scratch.run(["format", "--check", config]).status == 0)
    let again = try scratch.run(["keys", "generate", config])
    #expect(again.status == 1 && again.stderr.contains("already has key"))
    #expect(try String(contentsOfFile: config, encoding: .utf8) == text, "nothing changed")
  }

  @Test func signAndVerifyAgreeAndVerifyNamesWhatDoesNotMatch() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let config = try configuration(scratch)
    let subject = [config, "--product", Self.product, "--offer", Self.offer]
    let signed = try scratch.run(
      ["offer-signature", "sign"] + subject + ["--token", "6F1C3E2A-1B2C-4D5E-8F90-0A1B2C3D4E5F"])
    #expect(signed.status == 0, "\(signed.stderr)")
    let v1 = try #require(
      JSONSerialization.jsonObject(with: Data(signed.stdout.utf8)) as? [String: Any])
    let parts = [
      "--key", v1["keyIdentifier"] as! String, "--nonce", v1["nonce"] as! String,
      "--timestamp", "\(v1["timestamp"] as! Int)", "--signature", v1["signature"] as! String,
    ]
    let token = ["--token", "6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"]
    let valid = try scratch.run(["offer-signature", "verify"] + subject + token + parts)
    #expect(valid.status == 0 && valid.stdout == "valid\n", "\(valid.stderr)")
    let noToken = try scratch.run(["offer-signature", "verify"] + subject + parts)
    #expect(noToken.status == 1 && noToken.stderr.contains("app account token \"\""))
    let wrongKey = try scratch.run(
      ["offer-signature", "verify"] + subject + token
        + ["--key", "00000000"] + parts.dropFirst(2))
    #expect(wrongKey.stderr.contains("the key id \"00000000\" is not the configuration's"))
    let later = try scratch.run(
      ["offer-signature", "verify"] + subject + token + parts + ["--at", "2099-01-01T00:00:00Z"])
    #expect(later.status == 1 && later.stderr.contains("more than 24 hours"))
    // A fixed, old timestamp: StoreKit refuses it bought now (exit 1, naming it), and says how
    // to check it at the moment a test uses it.
    let old = try scratch.run(
      ["offer-signature", "sign"] + subject
        + ["--nonce", "8B2B0A4E-3F61-4D2B-9A5E-2F6C1D7E9A10", "--timestamp", "1700000000000"])
    let oldV1 = try #require(
      JSONSerialization.jsonObject(with: Data(old.stdout.utf8)) as? [String: Any])
    #expect(oldV1["nonce"] as? String == "8b2b0a4e-3f61-4d2b-9a5e-2f6c1d7e9a10")
    let lint = try scratch.run(
      ["offer-signature", "verify"] + subject
        + [
          "--key", oldV1["keyIdentifier"] as! String, "--nonce", oldV1["nonce"] as! String,
          "--timestamp", "1700000000000", "--signature", oldV1["signature"] as! String,
        ])
    #expect(lint.status == 1, "\(lint.stderr)")
    #expect(lint.stderr.contains("the timestamp 1700000000000 (2023-11-14T22:13:20.000Z)"))
    #expect(lint.stderr.contains("add --at 2023-11-14T22:13:20.000Z"))
    let atThen = try scratch.run(
      ["offer-signature", "verify"] + subject
        + [
          "--key", oldV1["keyIdentifier"] as! String, "--nonce", oldV1["nonce"] as! String,
          "--timestamp", "1700000000000", "--signature", oldV1["signature"] as! String,
          "--at", "2023-11-15T10:00:00Z",
        ])
    #expect(atThen.status == 0 && atThen.stdout == "valid\n", "\(atThen.stderr)")
    let jws = try scratch.run(["offer-signature", "sign"] + subject + ["--format", "jws"])
    let checked = try scratch.run(
      ["offer-signature", "verify"] + subject
        + ["--jws", jws.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
    #expect(checked.status == 0, "\(checked.stderr)")
    let bought = try buy(
      scratch, config,
      "key=\(v1["keyIdentifier"]!) nonce=\(v1["nonce"]!) timestamp=\(v1["timestamp"]!) "
        + "signature=\(v1["signature"]!) token=6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f")
    #expect(bought["result"] as? String == "success", "\(bought)")
  }

  @Test func signaturesMadeByApplesLibraryBuyAndTamperedOnesFail() throws {
    let python = try appleLibrary()
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let config = try configuration(scratch)
    let script = """
      import json, sys, time, uuid
      from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
      from appstoreserverlibrary.jws_signature_creator import (
          PromotionalOfferV2SignatureCreator, IntroductoryOfferEligibilitySignatureCreator)
      pair = json.load(open(sys.argv[1]))["subscriptionOffersKeyPair"]
      pem = ("-----BEGIN PRIVATE KEY-----\\n" + pair["privateKey"]
             + "\\n-----END PRIVATE KEY-----\\n").encode()
      bid = "com.example.storekeeper"
      nonce = uuid.uuid4()
      stamp = int(time.time() * 1000)
      v1 = PromotionalOfferSignatureCreator(pem, pair["id"], bid).create_signature(
          sys.argv[2], sys.argv[3], "", nonce, stamp)
      print(f"key={pair['id']} nonce={nonce} timestamp={stamp} signature={v1}")
      v2 = PromotionalOfferV2SignatureCreator(pem, pair["id"], "issuer", bid)
      print("jws=" + v2.create_signature(sys.argv[2], sys.argv[3], "0"))
      print("jws=" + v2.create_signature(sys.argv[2], "socialfeed.monthly.other", None))
      intro = IntroductoryOfferEligibilitySignatureCreator(pem, pair["id"], "issuer", bid)
      print("intro-jws=" + intro.create_signature("socialfeed.yearly", False, "0"))
      """
    let made = try runProcess(python, ["-c", script, config, Self.product, Self.offer])
    try #require(made.status == 0, "\(made.stderr)")
    let lines = made.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 4)
    #expect(try buy(scratch, config, lines[0])["result"] as? String == "success")
    #expect(try buy(scratch, config, lines[1])["result"] as? String == "success")
    let wrongOffer = try buy(scratch, config, lines[2])
    #expect((wrongOffer["error"] as? [String: Any])?["case"] as? String == "invalidOfferIdentifier")
    // A single character of the v1 signature changed.
    var tampered = Array(lines[0])
    let at = tampered.count - 6
    tampered[at] = tampered[at] == "A" ? "B" : "A"
    let refused = try buy(scratch, config, String(tampered))
    #expect((refused["error"] as? [String: Any])?["case"] as? String == "invalidOfferSignature")
    // The same signature twice: its nonce is spent.
    let twice = try scratch.run(
      ["run", config, "-"],
      stdin: "buy socialfeed.yearly\n"
        + "buy \(Self.product) offer=promo:\(Self.offer) \(lines[0])\n"
        + "buy \(Self.product) offer=promo:\(Self.offer) \(lines[0])\n")
    #expect(twice.stdout.contains("already used"))
    // Apple's eligibility JWS saying no: the new customer gets no free week.
    let intro = try scratch.run(
      ["run", config, "-"], stdin: "buy socialfeed.yearly \(lines[3])\n")
    let transaction = try #require(
      try jsonLines(intro.stdout).first { $0["event"] as? String == "transaction" }?[
        "transaction"] as? [String: Any])
    #expect(transaction["offerType"] == nil, "\(transaction)")
    let verified = try scratch.run(
      ["offer-signature", "verify", config, "--product", Self.product, "--offer", Self.offer]
        + lines[0].split(separator: " ").flatMap { part -> [String] in
          let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
          return ["--\(pair[0])", pair[1]]
        })
    #expect(verified.status == 0, "\(verified.stderr)")
  }
}
