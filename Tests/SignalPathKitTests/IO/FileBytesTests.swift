import Dispatch
import Testing
@testable import SignalPathKit

@Suite("FileBytes")
struct FileBytesTests {
    @Test("sub-ranges are zero-based views of the same bytes, from arrays and DispatchIO buffers alike")
    func subranges() {
        let array: [UInt8] = Array(0..<200)
        let fromDispatch = array.withUnsafeBytes { FileBytes(DispatchData(bytes: $0)) }
        for bytes in [FileBytes(array), fromDispatch] {
            #expect(bytes.count == 200 && bytes.array == array)
            let middle = bytes[50..<150]
            #expect(middle.count == 100 && middle.array == Array(50..<150))
            #expect(middle[10..<20].array == Array(60..<70))
            #expect(middle.isPartOfLargerStorage && !bytes.isPartOfLargerStorage)
            #expect(bytes[200..<200].isEmpty)
        }
        #expect(FileBytes(array) == fromDispatch)
    }

    @Test("data in several regions is flattened into one")
    func severalRegions() {
        var data = DispatchData.empty
        for part in 0..<3 {
            [UInt8](repeating: UInt8(part), count: 10).withUnsafeBytes { data.append(DispatchData(bytes: $0)) }
        }
        let bytes = FileBytes(data)
        #expect(bytes.array == [UInt8](repeating: 0, count: 10) + [UInt8](repeating: 1, count: 10) + [UInt8](repeating: 2, count: 10))
        #expect(bytes[5..<25].array == [UInt8](repeating: 0, count: 5) + [UInt8](repeating: 1, count: 10) + [UInt8](repeating: 2, count: 5))
    }
}
