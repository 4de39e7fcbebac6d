import Foundation
import FrugalCore

/// One line describing where a JSON document went wrong (`runs[2].outcome: ...`).
public enum DecodingErrorText {
    /// `data`, when given, is the document: a document that is no JSON at all is then told where
    /// it goes wrong, instead of Foundation's "The given data was not valid JSON.".
    public static func describe(_ error: DecodingError, data: Data? = nil) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let joined = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return joined.isEmpty ? "(top level)" : String(joined.drop { $0 == "." })
        }
        switch error {
        case .dataCorrupted(let context) where ErrorText.isWholeDocument(context):
            return ErrorText.invalidJSON(data)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing key '\(key.stringValue)'"
        @unknown default:
            return "\(error)"
        }
    }
}
