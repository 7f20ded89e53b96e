//===- RunRecord.cpp - what a run adds to its results, in order -----------===//

#include "RunRecord.h"
#include "JsonFields.h"

#include "llvm/ADT/STLExtras.h"

namespace warpcheck::tool {

void RunRecord::notAnalysed(RunPhase Phase, size_t Position, std::string File, std::string Why) {
  RunEvent E;
  E.Phase = Phase;
  E.Position = Position;
  E.What = RunEvent::Kind::NotAnalysed;
  E.File = std::move(File);
  E.Message = std::move(Why);
  Events.push_back(std::move(E));
}

void RunRecord::note(RunPhase Phase, size_t Position, std::string File, std::string Note) {
  RunEvent E;
  E.Phase = Phase;
  E.Position = Position;
  E.What = RunEvent::Kind::Note;
  E.File = std::move(File);
  E.Message = std::move(Note);
  Events.push_back(std::move(E));
}

void RunRecord::job(size_t Position, JobResult Result, std::vector<std::string> Notes,
                    std::string UserFile) {
  RunEvent E;
  E.Phase = RunPhase::Jobs;
  E.Position = Position;
  E.What = RunEvent::Kind::Job;
  E.File = Result.File;
  E.Result = std::move(Result);
  E.Notes = std::move(Notes);
  E.UserFile = std::move(UserFile);
  Events.push_back(std::move(E));
}

RunResult RunRecord::replay() const {
  std::vector<const RunEvent *> Order;
  for (const RunEvent &E : Events)
    Order.push_back(&E);
  llvm::stable_sort(Order, [](const RunEvent *A, const RunEvent *B) {
    return std::make_pair(A->Phase, A->Position) < std::make_pair(B->Phase, B->Position);
  });
  RunResult R;
  for (const RunEvent *E : Order) {
    switch (E->What) {
    case RunEvent::Kind::NotAnalysed:
      R.addNotAnalysed(E->File, E->Message);
      break;
    case RunEvent::Kind::Note:
      R.addNote(E->File, E->Message);
      break;
    case RunEvent::Kind::Job:
      if (!E->UserFile.empty())
        R.UserFiles.insert(E->UserFile);
      R.addJobOutput(*E->Result, E->Notes);
      break;
    }
  }
  return R;
}

static constexpr const char *KindNames[] = {"not_analysed", "note", "job"};

llvm::json::Object toJson(const RunEvent &E) {
  llvm::json::Object O{{"phase", static_cast<int64_t>(E.Phase)},
                       {"position", static_cast<int64_t>(E.Position)},
                       {"kind", KindNames[static_cast<int>(E.What)]},
                       {"file", E.File}};
  if (E.What == RunEvent::Kind::Job && E.Result) {
    JobResult Result = *E.Result;
    Result.Dependencies.clear();
    O["result"] = toJson(Result);
    O["notes"] = strings(E.Notes);
    O["user_file"] = E.UserFile;
  } else {
    O["message"] = E.Message;
  }
  return O;
}

bool runEventFromJson(const llvm::json::Object &O, RunEvent &Out) {
  std::optional<int64_t> Phase = O.getInteger("phase"), Position = O.getInteger("position");
  std::optional<llvm::StringRef> Kind = O.getString("kind");
  if (!Phase || *Phase < 0 || *Phase > static_cast<int64_t>(RunPhase::Notes) || !Position ||
      *Position < 0 || !Kind)
    return false;
  Out.Phase = static_cast<RunPhase>(*Phase);
  Out.Position = static_cast<size_t>(*Position);
  Out.File = stringField(O, "file").value_or("");
  auto Named = llvm::find(KindNames, *Kind);
  if (Named == std::end(KindNames))
    return false;
  Out.What = static_cast<RunEvent::Kind>(Named - std::begin(KindNames));
  if (Out.What != RunEvent::Kind::Job) {
    Out.Message = stringField(O, "message").value_or("");
    return true;
  }
  const llvm::json::Object *Result = O.getObject("result");
  if (!Result)
    return false;
  Out.Result = jobResultFromJson(*Result);
  Out.Notes = stringsOf(O.getArray("notes"));
  Out.UserFile = stringField(O, "user_file").value_or("");
  return true;
}

} // namespace warpcheck::tool
