import Foundation

/// A JSON Schema (2020-12) validator for the subset `schema/report.schema.json` uses: `type`,
/// `properties`, `required`, `additionalProperties`, `propertyNames.pattern`, `items`, `enum`,
/// `const`, `minimum`, `maximum` and local `$ref`s. A keyword it does not know is an error, so
/// the schema cannot silently outgrow the validator.
struct JSONSchemaValidator {
    let root: [String: Any]
    static let known: Set<String> = ["$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required",
                                     "additionalProperties", "propertyNames", "pattern", "items", "enum", "const", "minimum", "maximum"]

    init(schema: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: schema) as? [String: Any] else { throw ValidatorError("schema is not an object") }
        self.root = root
    }

    struct ValidatorError: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    /// Every violation, as `path: problem`.
    func validate(_ document: Data) throws -> [String] {
        let value = try JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])
        var errors: [String] = []
        try check(value, against: root, at: "$", errors: &errors)
        return errors
    }

    private func resolve(_ reference: String) throws -> [String: Any] {
        guard reference.hasPrefix("#/") else { throw ValidatorError("only local $ref: \(reference)") }
        var node: Any = root
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let object = node as? [String: Any], let next = object[String(part)] else { throw ValidatorError("bad $ref \(reference)") }
            node = next
        }
        guard let schema = node as? [String: Any] else { throw ValidatorError("$ref \(reference) is not a schema") }
        return schema
    }

    static func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            // swift-corelibs-foundation marks JSON booleans with objCType "c".
            if String(cString: number.objCType) == "c" { return "boolean" }
            // JSON Schema: a number with no fractional part is an integer.
            return number.doubleValue == number.doubleValue.rounded() ? "integer" : "number"
        }
        if value is String { return "string" }
        if value is [Any] { return "array" }
        if value is [String: Any] { return "object" }
        return "unknown"
    }

    private func check(_ value: Any, against schema: [String: Any], at path: String, errors: inout [String]) throws {
        for key in schema.keys where !Self.known.contains(key) { throw ValidatorError("unsupported keyword \(key) at \(path)") }
        if let reference = schema["$ref"] as? String {
            try check(value, against: resolve(reference), at: path, errors: &errors)
        }
        let actual = Self.typeName(value)
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [type as? String ?? ""]
            let matches = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            if !matches { errors.append("\(path): is \(actual), expected \(allowed.joined(separator: " or "))"); return }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { ($0 as? NSObject)?.isEqual(value) ?? false }) {
            errors.append("\(path): \(value) is not one of \(options)")
        }
        if let constant = schema["const"], !((constant as? NSObject)?.isEqual(value) ?? false) {
            errors.append("\(path): \(value) is not \(constant)")
        }
        if let number = value as? NSNumber, actual != "boolean" {
            if let minimum = schema["minimum"] as? Double, number.doubleValue < minimum { errors.append("\(path): \(number) < \(minimum)") }
            if let maximum = schema["maximum"] as? Double, number.doubleValue > maximum { errors.append("\(path): \(number) > \(maximum)") }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { errors.append("\(path): missing \(key)") }
            if let names = schema["propertyNames"] as? [String: Any], let pattern = names["pattern"] as? String {
                let regex = try NSRegularExpression(pattern: pattern)
                for key in object.keys where regex.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)) == nil {
                    errors.append("\(path): property name \(key) does not match \(pattern)")
                }
            }
            for (key, child) in object {
                if let propertySchema = properties[key] as? [String: Any] {
                    try check(child, against: propertySchema, at: "\(path).\(key)", errors: &errors)
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Bool, !allowed, properties.count > 0 || schema["properties"] != nil {
                        errors.append("\(path): unexpected property \(key)")
                    } else if let additionalSchema = additional as? [String: Any] {
                        try check(child, against: additionalSchema, at: "\(path).\(key)", errors: &errors)
                    }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { try check(item, against: items, at: "\(path)[\(index)]", errors: &errors) }
        }
    }
}
