import Testing

@testable import StoreSimulation

@Suite struct ChunkedArrayTests {
  @Test func appendsAcrossChunksAndReadsBackLikeAnArray() {
    var chunked = ChunkedArray<Int>()
    var flat: [Int] = []
    for value in 0..<200_000 {
      chunked.append(value * 7 % 1_000)
      flat.append(value * 7 % 1_000)
    }
    #expect(chunked.count == 200_000)
    #expect(chunked.elementsEqual(flat))
    #expect(chunked[65_535] == flat[65_535] && chunked[65_536] == flat[65_536])
    chunked[131_072] += 5
    flat[131_072] += 5
    chunked.sort()
    flat.sort()
    #expect(Array(chunked) == flat)
    #expect(chunked.lastIndex { $0 == 3 } == flat.lastIndex { $0 == 3 })
  }
}
