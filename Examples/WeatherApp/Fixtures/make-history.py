#!/usr/bin/env python3
"""Writes Fixtures/Documents/history.json: the forecast history of a user who has had the app for
eight years (2,920 days with their hours), installed in the sandbox's Documents before
weather.main-io launches (frugal.yml's `documents:`). Deterministic; generated rather than
committed (it is about 6 MB): scripts/ci-weather.sh runs this when the file is missing."""
import datetime, json, math, os

summaries = ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "clear"]
start = datetime.date(2018, 11, 26)
days = []
for d in range(8 * 365):
    hours = []
    for h in range(24):
        t = 14 + 5 * math.sin((h - 9) / 24 * 2 * math.pi) + 6 * math.sin(d / 365 * 2 * math.pi)
        rain = max(0.0, round(1.2 * math.sin((d * 24 + h) / 17.0) - 0.4, 1))
        hours.append({"hour": h, "temperature": round(t, 1), "precipitation": rain,
                      "wind": round(8 + 6 * abs(math.sin((d * 24 + h) / 9.0)), 1),
                      "summary": summaries[(d + h // 6) % len(summaries)]})
    temps = [x["temperature"] for x in hours]
    days.append({"date": (start + datetime.timedelta(days=d)).isoformat(), "high": max(temps), "low": min(temps),
                 "summary": summaries[d % len(summaries)], "hours": hours})
folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Documents")
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "history.json"), "w") as f:
    json.dump(days, f, separators=(",", ":"))
print(f"Documents/history.json: {len(days)} days, {os.path.getsize(os.path.join(folder, 'history.json'))} bytes")
