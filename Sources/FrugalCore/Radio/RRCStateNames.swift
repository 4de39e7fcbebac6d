/// Each technology's own names for the stretches on a radio lane.
struct RRCStateNames {
    var promotion: String
    var fachPromotion: String
    var active: String
    var tail: String
    var fach: String
    var idle: String

    init(_ technology: RadioProfile.Technology) {
        switch technology {
        case .lte:
            self.init(
                promotion: "RRC_IDLE→RRC_CONNECTED", fachPromotion: "",
                active: "RRC_CONNECTED continuous reception", tail: "RRC_CONNECTED tail (DRX)",
                fach: "", idle: "RRC_IDLE (paging DRX)"
            )
        case .threeG:
            self.init(
                promotion: "IDLE→DCH", fachPromotion: "FACH→DCH",
                active: "DCH", tail: "DCH tail", fach: "FACH tail", idle: "IDLE"
            )
        case .wifi:
            self.init(
                promotion: "wake", fachPromotion: "",
                active: "active", tail: "tail", fach: "", idle: "standby"
            )
        }
    }

    private init(promotion: String, fachPromotion: String, active: String, tail: String, fach: String, idle: String) {
        self.promotion = promotion
        self.fachPromotion = fachPromotion
        self.active = active
        self.tail = tail
        self.fach = fach
        self.idle = idle
    }
}
