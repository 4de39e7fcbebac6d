// Built-in profiles. Each number is repeated in Profiles/<name>.json, and a test
// decodes those files and compares them with these values, so the two cannot drift.

extension RadioProfile {
    /// Huang et al., MobiSys 2012: where the LTE state powers, timers and power model come from.
    static let huang2012 =
        "J. Huang, F. Qian, A. Gerber, Z. M. Mao, S. Sen, O. Spatscheck. A Close Examination of "
        + "Performance and Power Characteristics of 4G LTE Networks. MobiSys 2012 "
        + "(Table 3 state powers and timers; power model P = alpha_u*t_u + alpha_d*t_d + beta)."
    /// ARO's default LTE profile file and its hard-coded fallback.
    static let aroLTE =
        "AT&T ARO / Video Optimizer default LTE profile: ARO.Core/src/main/resources/lte.conf and "
        + "ProfileFactoryImpl.createLTE / energyLTE (github.com/attdevsupport/VideoOptimizer)."
    /// ARO's hard-coded 3G defaults.
    static let aro3G =
        "AT&T ARO / Video Optimizer hard-coded 3G defaults: ProfileFactoryImpl.create3G / energy3G "
        + "(github.com/attdevsupport/VideoOptimizer, ARO.Core/src/main/java/com/att/aro/core/"
        + "configuration/impl/ProfileFactoryImpl.java). The bundled device file i997.conf differs "
        + "(DCH->FACH 4 s, FACH->IDLE 10 s, DCH 1.30 W, FACH 0.30 W)."
    /// ARO's Wi-Fi profile file and its hard-coded fallback.
    static let aroWiFi =
        "AT&T ARO / Video Optimizer Wi-Fi profile: ARO.Core/src/main/resources/WiFi.conf and "
        + "ProfileFactoryImpl.createWiFi / energyWiFi (github.com/attdevsupport/VideoOptimizer)."
    /// ARO's state sequencing, which fixes how silences are split into active and tail.
    static let aroStateMachine =
        "AT&T ARO / Video Optimizer RRC state ranges: RrcStateRangeFactoryImpl.createLTE / "
        + "create3G / createWiFi (github.com/attdevsupport/VideoOptimizer)."
    /// ARO's burst thresholds.
    static let aroBurst =
        "AT&T ARO burst thresholds BURST_TH, PERIOD_MIN_CYCLE, PERIOD_CYCLE_TOL, PERIOD_MIN_SAMPLES "
        + "(lte.conf, i997.conf, WiFi.conf) and BurstCollectionAnalysisImpl.groupIntoBursts."

    static let burstNotes: [String: String] = [
        "burstCriteria.silenceSeconds": "ARO BURST_TH = 1.5 s; a gap strictly longer than this splits bursts.",
        "burstCriteria.periodMinCycleSeconds": "ARO PERIOD_MIN_CYCLE = 10 s.",
        "burstCriteria.periodCycleToleranceSeconds": "ARO PERIOD_CYCLE_TOL = 1 s.",
        "burstCriteria.periodMinBursts": "ARO PERIOD_MIN_SAMPLES = 3.",
    ]

    /// LTE after Huang et al. 2012, with ARO's idle paging constants.
    ///
    /// The tail is charged at its published base power for its whole length
    /// rather than split into continuous reception and short/long DRX: ARO's
    /// split (0.1 s + 0.02 s + 10 s) does not add up to the paper's 11.576 s, and
    /// the DRX on-duration spikes it adds change the tail average by only ~1.5-3 %.
    public static let lte = RadioProfile(
        name: "LTE (Huang et al. 2012 / ARO)",
        technology: .lte,
        promotionSeconds: 0.2601,
        promotionWatts: 1.2107,
        activeWatts: 1.28804,
        uplinkWattsPerMbps: 0.43839,
        downlinkWattsPerMbps: 0.05197,
        activeHoldSeconds: 0.1,
        tailSeconds: 11.576,
        tailWatts: 1.06,
        fachSeconds: 0,
        fachWatts: 0,
        fachPromotionSeconds: 0,
        fachPromotionWatts: 0,
        idleWatts: 0,
        idlePingWatts: 0.594,
        idlePingSeconds: 0.043,
        idlePingPeriodSeconds: 1.28,
        burstCriteria: .aro,
        sources: [huang2012, aroLTE, aroStateMachine, aroBurst],
        notes: burstNotes.merging([
            "promotionSeconds": "Huang 2012 Table 3: RRC_IDLE->CONNECTED promotion 260.1 ms (ARO T_PROMOTION rounds to 0.26 s).",
            "promotionWatts": "Huang 2012 Table 3: promotion power 1210.7 mW (ARO P_PROMOTION = 1.21 W).",
            "activeWatts": "Huang 2012 power model beta = 1288.04 mW. ARO lte.conf uses LTE_BETA = 1.2 W; Frugal keeps the paper's fit.",
            "uplinkWattsPerMbps": "Huang 2012 alpha_u = 438.39 mW/Mbps (ARO LTE_ALPHA_UP = 438.39).",
            "downlinkWattsPerMbps": "Huang 2012 alpha_d = 51.97 mW/Mbps (ARO LTE_ALPHA_DOWN = 51.97).",
            "activeHoldSeconds": "DRX inactivity timer Ti = 100 ms (Huang 2012; ARO INACTIVITY_TIMER = 0.1 s): closer chunks stay in continuous reception, ARO's LTE_CONTINUOUS.",
            "tailSeconds": "Huang 2012 Table 3: tail timer 11.576 s from the last packet to RRC_IDLE, including Ti and the DRX phases.",
            "tailWatts": "Huang 2012 Table 3: tail base power 1060 mW (ARO P_TAIL = 1.06 W); DRX on-duration spikes not added.",
            "fachSeconds": "LTE has no FACH state.",
            "fachWatts": "LTE has no FACH state.",
            "fachPromotionSeconds": "LTE has no FACH state.",
            "fachPromotionWatts": "LTE has no FACH state.",
            "idleWatts": "ARO lte.conf P_IDLE = 0.0 W between paging wake-ups (device baseline is not radio energy).",
            "idlePingWatts": "ARO lte.conf P_IDLE_PING = 0.594 W; Huang 2012 reports about 594 mW for RRC_IDLE DRX.",
            "idlePingSeconds": "ARO lte.conf T_IDLE_PING = 0.043 s; Huang 2012 reports about 43 ms.",
            "idlePingPeriodSeconds": "ARO lte.conf T_IDLE_PING_PERIOD = 1.28 s; Huang 2012 reports an idle DRX cycle of about 1.28 s.",
        ]) { $1 }
    )

    /// UMTS 3G after ARO's hard-coded defaults (IDLE, FACH, DCH).
    ///
    /// ARO's small-transfer FACH rule is left out: ARO lets transfers below
    /// the RLC buffer thresholds (543 B up, 475 B down) stay in FACH without a
    /// DCH promotion. Here every chunk reaches DCH, so small keep-alives that
    /// arrive while the radio is idle or in FACH are charged a full promotion
    /// and DCH tail, which overstates their cost compared with ARO.
    public static let threeG = RadioProfile(
        name: "3G UMTS (ARO defaults)",
        technology: .threeG,
        promotionSeconds: 2.0,
        promotionWatts: 0.53,
        activeWatts: 0.7,
        uplinkWattsPerMbps: 0,
        downlinkWattsPerMbps: 0,
        activeHoldSeconds: 5.0,
        tailSeconds: 5.0,
        tailWatts: 0.7,
        fachSeconds: 12.0,
        fachWatts: 0.35,
        fachPromotionSeconds: 1.5,
        fachPromotionWatts: 0.55,
        idleWatts: 0,
        idlePingWatts: 0,
        idlePingSeconds: 0,
        idlePingPeriodSeconds: 0,
        burstCriteria: .aro,
        sources: [aro3G, aroStateMachine, aroBurst],
        notes: burstNotes.merging([
            "promotionSeconds": "ARO IDLE_DCH_PROMO_AVG = 2.0 s (min 1.5 s, max 4.0 s).",
            "promotionWatts": "ARO POWER_IDLE_DCH = 0.53 W (i997.conf: 0.65 W).",
            "activeWatts": "ARO POWER_DCH = 0.7 W (i997.conf: 1.30 W).",
            "uplinkWattsPerMbps": "ARO's 3G model has no throughput term.",
            "downlinkWattsPerMbps": "ARO's 3G model has no throughput term.",
            "activeHoldSeconds": "Equal to the DCH->FACH timer: ARO keeps STATE_DCH across any silence shorter than that timer.",
            "tailSeconds": "ARO DCH_FACH_TIMER = 5 s (i997.conf: 4 s).",
            "tailWatts": "ARO energy3G charges TAIL_DCH at POWER_DCH = 0.7 W.",
            "fachSeconds": "ARO FACH_IDLE_TIMER = 12 s (i997.conf: 10 s).",
            "fachWatts": "ARO POWER_FACH = 0.35 W (i997.conf: 0.30 W).",
            "fachPromotionSeconds": "ARO FACH_DCH_PROMO_AVG = 1.5 s (min 0.8 s, max 3.0 s).",
            "fachPromotionWatts": "ARO POWER_FACH_DCH = 0.55 W (i997.conf: 0.80 W).",
            "idleWatts": "ARO POWER_IDLE = 0 W.",
            "idlePingWatts": "ARO's 3G profile does not model idle paging.",
            "idlePingSeconds": "ARO's 3G profile does not model idle paging.",
            "idlePingPeriodSeconds": "ARO's 3G profile does not model idle paging.",
        ]) { $1 }
    )

    /// Wi-Fi after ARO's Wi-Fi profile: active, a short tail, then standby.
    ///
    /// ARO's Wi-Fi machine has no promotion, so a wake from standby is counted
    /// as a promotion of zero length: promotion counts stay comparable across
    /// technologies while adding no time or energy.
    public static let wifi = RadioProfile(
        name: "Wi-Fi (ARO)",
        technology: .wifi,
        promotionSeconds: 0,
        promotionWatts: 0,
        activeWatts: 0.403,
        uplinkWattsPerMbps: 0,
        downlinkWattsPerMbps: 0,
        activeHoldSeconds: 0.25,
        tailSeconds: 0.25,
        tailWatts: 0.403,
        fachSeconds: 0,
        fachWatts: 0,
        fachPromotionSeconds: 0,
        fachPromotionWatts: 0,
        idleWatts: 0.02,
        idlePingWatts: 0,
        idlePingSeconds: 0,
        idlePingPeriodSeconds: 0,
        burstCriteria: .aro,
        sources: [aroWiFi, aroStateMachine, aroBurst],
        notes: burstNotes.merging([
            "promotionSeconds": "ARO's Wi-Fi state machine (createWiFi) has no promotion.",
            "promotionWatts": "ARO's Wi-Fi state machine (createWiFi) has no promotion.",
            "activeWatts": "ARO POWER_WIFI_ACTIVE = 0.403 W.",
            "uplinkWattsPerMbps": "ARO's Wi-Fi model has no throughput term.",
            "downlinkWattsPerMbps": "ARO's Wi-Fi model has no throughput term.",
            "activeHoldSeconds": "Equal to the Wi-Fi tail: ARO keeps WIFI_ACTIVE across silences no longer than WIFI_TAIL_TIME.",
            "tailSeconds": "ARO WIFI_TAIL_TIME = 0.25 s.",
            "tailWatts": "ARO energyWiFi charges WIFI_TAIL at POWER_WIFI_ACTIVE = 0.403 W.",
            "fachSeconds": "Wi-Fi has no FACH state.",
            "fachWatts": "Wi-Fi has no FACH state.",
            "fachPromotionSeconds": "Wi-Fi has no FACH state.",
            "fachPromotionWatts": "Wi-Fi has no FACH state.",
            "idleWatts": "ARO POWER_WIFI_STANDBY = 0.02 W.",
            "idlePingWatts": "Beacon wake-ups are folded into the standby average.",
            "idlePingSeconds": "Beacon wake-ups are folded into the standby average.",
            "idlePingPeriodSeconds": "Beacon wake-ups are folded into the standby average.",
        ]) { $1 }
    )

    /// The three built-in profiles, in the order LTE, 3G, Wi-Fi.
    public static let builtIn: [RadioProfile] = [.lte, .threeG, .wifi]
}
