--[[
Coalition's job_submit/lua filter: users keep typing sbatch.

A batch job submitted to an opted-in partition or QOS is marked federable (its admin comment
starts with "coalition:federable"; an array's names the array as submitted, "array=0-49", and
each of its tasks may run elsewhere on its own) and gets one short shell statement at the start of
its second line. At home it does nothing and the script runs exactly as written. When the job ran at another site of the
federation, the Coalition daemon leaves the remote run's output and exit status in the results
folder and releases the held job; the statement then hands over to coalition-replay, which replays
them in a second, so squeue, sacct and --dependency=afterok see an ordinary job.

Only sh-family scripts (sh, bash, dash, ksh, mksh, zsh) are federated: the statement is shell code.
Other scripts (python, perl, csh...) stay at home, untouched, and sbatch says so.

Install: see slurm-handler/README.md ("sbatch as usual"). Edit the four settings below; if the
site already has a job_submit.lua, call coalition_job_submit(job_desc, part_list) from its
slurm_job_submit.
--]]

-- coalition settings
local COALITION = {
  partitions = {},                                 -- opted-in partitions, e.g. { "federated" }
  qos = {},                                        -- opted-in QOS names, e.g. { "share" }
  replay = "/usr/lib/coalition/coalition-replay",  -- the replay tool, on every compute node
  results = "/var/spool/coalition/results",        -- the daemon's results folder, seen by every compute node
}
-- end of coalition settings

local MARK = "coalition:federable"
local SHELLS = { sh = true, bash = true, dash = true, ksh = true, mksh = true, zsh = true }

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- The code put at the start of the second line: does nothing unless the daemon left a result for
-- this job. It shares the line with what was there, so line numbers ($LINENO, error messages)
-- stay those of the script as written.
local HOOK = "if [ -e " .. quote(COALITION.results) .. '/"$SLURM_JOB_ID" ]; then exec '
  .. quote(COALITION.replay) .. " " .. quote(COALITION.results) .. '/"$SLURM_JOB_ID"; fi; '

local function member(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- The partition a job without -p goes to.
local function default_partition(part_list)
  for _, part in pairs(part_list or {}) do
    if part.flag_default ~= nil and part.flag_default ~= 0 then return part.name end
  end
  return nil
end

local function opted_in(job_desc, part_list)
  if job_desc.qos ~= nil and member(COALITION.qos, job_desc.qos) then return true end
  local partitions = job_desc.partition or default_partition(part_list)
  if partitions == nil then return false end
  for p in string.gmatch(partitions, "[^,]+") do
    if member(COALITION.partitions, p) then return true end
  end
  return false
end

-- The interpreter's name from the "#!" line ("bash" for "#!/usr/bin/env bash"), or nil.
local function interpreter(script)
  local line = script:match("^#![ \t]*([^\n]*)")
  if line == nil then return nil end
  local prog, args = line:match("^(%S+)[ \t]*(.-)[ \t\r]*$")
  if prog == nil then return nil end
  local name = prog:match("([^/]+)$")
  if name == "env" then name = args:match("^(%S+)") end
  return name
end

-- Why a job's request cannot travel, or nil. Nodes, tasks and GRES per node travel (the daemon
-- reads them, docs/jobs.md "Nodes, tasks and GPUs"); GRES per task or per socket do not, nor GRES per
-- job over several nodes, nor anything but CPUs and GRES in a TRES request.
local function cannot_travel(job_desc)
  local nodes = tonumber(job_desc.min_nodes)
  local several = nodes ~= nil and nodes > 1 and nodes < 4294967294  -- NO_VAL and INFINITE: not given
  local kinds = {tres_per_node = "", tres_per_job = "", tres_per_task = " per task", tres_per_socket = " per socket"}
  for field, how in pairs(kinds) do
    local tres = job_desc[field]
    if tres ~= nil and tres ~= "" then
      for item in string.gmatch(tres, "[^,]+") do
        if not item:match("^cpu[:=]") then
          if not item:match("^gres[:/]") then return "it asks for " .. item .. ", which runs elsewhere do not carry" end
          local gres = (item:sub(6):gsub("=", ":"))  -- 24.11 writes a count per task as gres/gpu=1
          if how ~= "" then return "it asks for " .. gres .. how .. "; ask for it per node (--gres) to run elsewhere" end
          if field == "tres_per_job" and several then
            return "it asks for " .. gres .. " for the whole job over several nodes; ask for it per node (--gres) to run elsewhere"
          end
        end
      end
    end
  end
  return nil
end

function coalition_job_submit(job_desc, part_list)
  local script = job_desc.script
  if script == nil or script == "" then return slurm.SUCCESS end  -- salloc and srun: interactive, never federated
  if not opted_in(job_desc, part_list) then return slurm.SUCCESS end
  local array = job_desc.array_inx
  if array ~= nil and array ~= "" then
    if array:find("%", 1, true) then
      -- runs elsewhere would not count against the limit
      slurm.log_user("coalition: this array job stays at this site: it limits how many of its tasks run at once (%s)", array)
      return slurm.SUCCESS
    end
    if not array:match("^[0-9,:-]+$") or #array > 200 then
      slurm.log_user("coalition: this array job stays at this site: its task list %s is not one the federation reads", array)
      return slurm.SUCCESS
    end
  else
    array = nil
  end
  local shape = cannot_travel(job_desc)
  if shape ~= nil then
    slurm.log_user("coalition: this job stays at this site: %s", shape)
    return slurm.SUCCESS
  end
  local shell = interpreter(script)
  if not SHELLS[shell or ""] then
    slurm.log_user("coalition: this job stays at this site: only sh-family scripts (sh, bash, ksh, zsh) can run elsewhere, this one is run by %s",
      shell or "no #! line")
    return slurm.SUCCESS
  end
  local first, rest = script:match("^([^\n]*\n)(.*)$")
  if first == nil then first, rest = script .. "\n", "\n" end
  if rest:sub(1, #HOOK) ~= HOOK then  -- a script saved with scontrol write batch_script has it already
    job_desc.script = first .. HOOK .. rest
  end
  -- an array's tasks federate one by one: the mark names the array as submitted, for the variables its tasks' runs see
  local mark = MARK
  if array ~= nil then mark = MARK .. " array=" .. array end
  local comment = job_desc.admin_comment
  if comment == nil or comment == "" then
    job_desc.admin_comment = mark
  elseif comment:sub(1, #MARK) ~= MARK then
    job_desc.admin_comment = mark .. " " .. comment
  end
  return slurm.SUCCESS
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  return coalition_job_submit(job_desc, part_list)
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

slurm.log_info("coalition job_submit filter loaded: partitions {%s}, qos {%s}",
  table.concat(COALITION.partitions, ","), table.concat(COALITION.qos, ","))
return slurm.SUCCESS
