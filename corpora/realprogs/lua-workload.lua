-- A deterministic Lua workload (oracle realprogs): fib(32) as in issue 14's
-- benchmark, plus tables, strings, closures and floats. Its output is
-- compared with the same script run by the Lua built by the target's gcc -O0.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib(32)", fib(32))
local x, t = 42, {}
for i = 1, 200000 do x = (x * 1103515245 + 12345) % 2147483648; t[i] = x % 100000 end
table.sort(t)
local s = 0
for i = 1, #t, 997 do s = s + t[i] end
print("sorted", t[1], t[#t], s)
local words = {}
for w in string.gmatch(string.rep("the quick brown fox jumps over the lazy dog ", 2000), "%a+") do
  words[w] = (words[w] or 0) + 1
end
local keys = {}
for k in pairs(words) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", words[k], " ") end
print()
local acc = 0.0
for i = 1, 100000 do acc = acc + math.sin(i) * math.sqrt(i) / (i + 1) end
print(string.format("float %.10f %a", acc, acc))
local function counter() local c = 0; return function() c = c + 1; return c end end
local f = counter(); for _ = 1, 99999 do f() end
print("closure", f(), string.format("%q", "a\0b\n"), ("x"):rep(3, "-"), utf8.char(955, 8364))
