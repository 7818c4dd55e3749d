-- fib(32) for the code benchmark (oracle bench-code, issue 14): a Lua
-- interpreter's call and dispatch path, nothing else.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib(32)", fib(32))
