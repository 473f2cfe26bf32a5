-- wrk script for Benchmarks/read-under-sync/run.sh: a mix of read-API requests while syncs commit.
--   1 in 4: the whole table with no limit (capped by max_rows), 1 in 4: a page of 200 at a random offset,
--   1 in 2: one record by key. Every list answer is checked: all its records carry the same "stamp" (the
--   upstream's generation), so a reader that saw half of a sync would be counted as "mixed".
-- Arguments after --: the number of users.
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    users = tonumber(args[1]) or 1000
    counter = 0
    unexpected = 0
    mixed = 0
    lists = 0
end

function request()
    counter = counter + 1
    local kind = counter % 4
    if kind == 0 then
        return wrk.format("GET", "/v1/endpoints/users/records")
    elseif kind == 1 then
        local offset = math.random(0, math.max(0, users - 200))
        return wrk.format("GET", "/v1/endpoints/users/records?offset=" .. offset .. "&limit=200")
    else
        return wrk.format("GET", "/v1/endpoints/users/records/" .. math.random(1, users))
    end
end

function response(status, headers, body)
    if status ~= 200 and status ~= 304 then
        unexpected = unexpected + 1
        return
    end
    if body:sub(1, 1) == "[" then
        lists = lists + 1
        local first = nil
        for stamp in body:gmatch('"stamp": (%d+)') do
            if first == nil then
                first = stamp
            elseif stamp ~= first then
                mixed = mixed + 1
                break
            end
        end
    end
end

function done(summary, latency, requests)
    local unexpected_total, mixed_total, lists_total = 0, 0, 0
    for _, thread in ipairs(threads) do
        unexpected_total = unexpected_total + thread:get("unexpected")
        mixed_total = mixed_total + thread:get("mixed")
        lists_total = lists_total + thread:get("lists")
    end
    local errors = summary.errors
    io.write(string.format(
        "RESULT requests=%d seconds=%.1f unexpected=%d socket_errors=%d mixed=%d lists=%d p50=%.2f p99=%.2f max=%.2f\n",
        summary.requests, summary.duration / 1e6, unexpected_total,
        errors.connect + errors.read + errors.write + errors.timeout, mixed_total, lists_total,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
