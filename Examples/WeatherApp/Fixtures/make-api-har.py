#!/usr/bin/env python3
"""Writes Fixtures/api.har: what the weather API answers for the example's one request, as a
HAR 1.2 export (the shape DevTools, Charles and `frugal record` write). The forecast is made up
but shaped like a real one, deterministic, so the committed file only changes with this script."""
import json, math, os

summaries = ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "clear"]
days = []
for d in range(10):
    hours = []
    for h in range(24):
        t = 14 + 5 * math.sin((h - 9) / 24 * 2 * math.pi) + (d % 4) - 1.5
        rain = max(0.0, round(1.2 * math.sin((d * 24 + h) / 17.0) - 0.4, 1))
        hours.append({"hour": h, "temperature": round(t, 1), "precipitation": rain,
                      "wind": round(8 + 6 * abs(math.sin((d * 24 + h) / 9.0)), 1),
                      "summary": summaries[(d + h // 6) % len(summaries)]})
    temps = [x["temperature"] for x in hours]
    days.append({"date": f"2026-11-{26 + d:02d}" if 26 + d <= 30 else f"2026-12-{26 + d - 30:02d}",
                 "high": max(temps), "low": min(temps), "summary": summaries[d % len(summaries)], "hours": hours})
body = json.dumps({"city": "lisbon", "days": days}, separators=(",", ":"))
har = {"log": {"version": "1.2", "creator": {"name": "make-api-har.py", "version": "1"},
    "entries": [{
        "startedDateTime": "2026-11-26T09:00:00.000Z", "time": 85,
        "request": {"method": "GET", "url": "https://api.example.test/v1/forecast?city=lisbon",
                    "httpVersion": "HTTP/1.1", "headers": [{"name": "Accept", "value": "*/*"}]},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                     "headers": [{"name": "Content-Type", "value": "application/json"},
                                 {"name": "Cache-Control", "value": "max-age=600"}],
                     "content": {"size": len(body), "mimeType": "application/json", "text": body}},
        "timings": {"send": 0, "wait": 80, "receive": 5}}]}}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "api.har"), "w") as f:
    json.dump(har, f, indent=1)
    f.write("\n")
print(f"api.har: one entry, a {len(body)}-byte JSON body")
