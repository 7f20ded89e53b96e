//===- CompileFlagsTest.cpp - one flag table, two consumers ---------------===//
//
// The flag table (toolchain/CompileFlags.h) is read by the parse's
// translation of a compile command (tool/CompileCommand.h) and by the nvcc
// run's filter (toolchain/NvccInvocation.h). A flag's fate must be the same
// wherever the table says it is: dropped by both, kept by both, and its
// value never read as a flag by either.
//
//===----------------------------------------------------------------------===//

#include "ArgumentLists.h"
#include "CompileCommand.h"

#include "warpcheck/toolchain/CompileFlags.h"
#include "warpcheck/toolchain/NvccInvocation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace warpcheck::tool;
using namespace warpcheck::toolchain;
using Args = std::vector<std::string>;
using warpcheck::testing::containsArgument;

namespace {

bool droppedByBoth(const CompileFlag &Row) {
  const FlagFates &F = fatesOf(Row.Meaning);
  return F.ForParse == FlagFate::Dropped &&
         (F.ForNvcc == FlagFate::Dropped || F.ForNvcc == FlagFate::SetByWarpcheck);
}

/// nvcc's spelling of a row, with a value joined where it takes one.
std::string spelled(const CompileFlag &Row) {
  if (!Row.Long.empty())
    return "--" + Row.Long.str() + (Row.TakesValue ? "=v" : "");
  return "-" + Row.Short.str();
}

TEST(CompileFlagsTest, EveryMeaningHasItsFates) {
  for (const CompileFlag &Row : compileFlagTable()) {
    const FlagFates &F = fatesOf(Row.Meaning);
    EXPECT_EQ(F.Meaning, Row.Meaning) << spelled(Row);
    EXPECT_FALSE(F.Reason.empty()) << spelled(Row);
  }
  EXPECT_STREQ(flagFateName(fatesOf(FlagMeaning::IncludePath).ForNvcc), "kept");
  EXPECT_STREQ(flagFateName(fatesOf(FlagMeaning::Unsafe).ForParse), "dropped");
}

TEST(CompileFlagsTest, DroppedByTheTableIsDroppedByBoth) {
  unsigned Rows = 0;
  for (const CompileFlag &Row : compileFlagTable()) {
    if (!droppedByBoth(Row))
      continue;
    ++Rows;
    std::string Flag = spelled(Row);
    Args Command = {"nvcc", Flag};
    if (Row.TakesValue && Row.Long.empty())
      Command.push_back("v");
    Command.push_back("k.cu");
    std::string Shown = Row.TakesValue && Row.Long.empty() ? Flag + " v" : Flag;
    TranslatedCommand T = translateCompileCommand(Command);
    SanitizedFlags S = sanitizeCompileFlags(Command, "/w");
    EXPECT_TRUE(containsArgument(T.Dropped, Shown)) << Shown;
    EXPECT_TRUE(containsArgument(S.Dropped, Shown)) << Shown;
    EXPECT_FALSE(containsArgument(T.ClangArgs, Flag)) << Flag;
    EXPECT_TRUE(S.Kept.empty()) << Flag;
  }
  // --ccbin, --options-file, -o, -E, --keep-dir ... : most of nvcc's options.
  EXPECT_GT(Rows, 100u);
}

TEST(CompileFlagsTest, ValueOfADroppedFlagIsNoFlagForEither) {
  for (const CompileFlag &Row : compileFlagTable()) {
    if (!droppedByBoth(Row) || !Row.TakesValue || Row.Meaning == FlagMeaning::NvccWerror)
      continue;
    std::string Flag = Row.Short.empty() ? "--" + Row.Long.str() : "-" + Row.Short.str();
    Args Command = {"nvcc", Flag, "-DINJECTED", "k.cu"};
    EXPECT_TRUE(takesSeparateValue(Flag)) << Flag;
    EXPECT_FALSE(containsArgument(translateCompileCommand(Command).ClangArgs, "-DINJECTED")) << Flag;
    EXPECT_FALSE(containsArgument(sanitizeCompileFlags(Command, "/w").Kept, "-DINJECTED")) << Flag;
  }
}

TEST(CompileFlagsTest, KeptByTheTableIsKeptByBoth) {
  struct Case {
    Args In;
    Args Parse; // A sequence of the translated clang arguments.
    Args Nvcc;  // The flags nvcc gets.
  };
  const Case Cases[] = {
      {{"--include-path=/p/inc"}, {"-I", "/p/inc"}, {"-I/p/inc"}},
      {{"-I", "/p/inc"}, {"-I", "/p/inc"}, {"-I/p/inc"}},
      {{"-isystem=/p/sys"}, {"-isystem", "/p/sys"}, {"-isystem", "/p/sys"}},
      {{"--system-include", "/p/sys"}, {"-isystem", "/p/sys"}, {"-isystem", "/p/sys"}},
      {{"--pre-include=/p/config.h"}, {"-include", "/p/config.h"}, {"-include", "/p/config.h"}},
      {{"-include", "/p/config.h"}, {"-include", "/p/config.h"}, {"-include", "/p/config.h"}},
      {{"--define-macro=N=4"}, {"-D", "N=4"}, {"-DN=4"}},
      {{"-DN=4"}, {"-DN=4"}, {"-DN=4"}},
      {{"--undefine-macro=M"}, {"-U", "M"}, {"-UM"}},
      {{"--std=c++17"}, {"-std=c++17"}, {"-std=c++17"}},
      {{"-std", "c++17"}, {"-std=c++17"}, {"-std=c++17"}},
  };
  for (const Case &C : Cases) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), C.In.begin(), C.In.end());
    Command.push_back("k.cu");
    Args Parse = translateCompileCommand(Command).ClangArgs;
    EXPECT_NE(std::search(Parse.begin(), Parse.end(), C.Parse.begin(), C.Parse.end()),
              Parse.end())
        << C.In.front();
    EXPECT_EQ(sanitizeCompileFlags(Command, "/w").Kept, C.Nvcc) << C.In.front();
    std::optional<MatchedFlag> M = matchCompileFlag(C.In, 0);
    ASSERT_TRUE(M) << C.In.front();
    EXPECT_EQ(fatesOf(M->Flag->Meaning).ForParse, FlagFate::Kept) << C.In.front();
    EXPECT_EQ(fatesOf(M->Flag->Meaning).ForNvcc, FlagFate::Kept) << C.In.front();
  }
}

TEST(CompileFlagsTest, DeviceMathFlagsReachNvcc) {
  // They change the instructions nvcc emits (and the lines nvdisasm puts
  // them on), so the listing and the register count are the build's.
  Args Command = {"nvcc", "--use_fast_math", "-ftz", "false", "-fmad=TRUE", "-prec-div=false",
                  "-prec-sqrt", "true", "-ftz=maybe", "k.cu"};
  SanitizedFlags F = sanitizeCompileFlags(Command, "/w");
  EXPECT_EQ(F.Kept, (Args{"--use_fast_math", "-ftz=false", "-fmad=true", "-prec-div=false",
                          "-prec-sqrt=true"}));
  EXPECT_TRUE(std::find(F.Dropped.begin(), F.Dropped.end(), "-ftz=maybe") != F.Dropped.end());
  for (const char *Flag : {"use_fast_math", "ftz", "fmad", "prec-div", "prec-sqrt"}) {
    Args One = {std::string("-") + Flag};
    std::optional<MatchedFlag> M = matchCompileFlag(One, 0);
    ASSERT_TRUE(M) << Flag;
    EXPECT_EQ(fatesOf(M->Flag->Meaning).ForNvcc, FlagFate::Kept) << Flag;
  }
  // The parse has no switch for the precision of division or square root.
  for (const std::string &A : translateCompileCommand(Command).ClangArgs)
    EXPECT_EQ(A.find("prec"), std::string::npos) << A;
}

TEST(CompileFlagsTest, RegisterLimitReachesBoth) {
  for (const Args &In : {Args{"nvcc", "-maxrregcount=32", "k.cu"},
                         Args{"nvcc", "--maxrregcount", "32", "k.cu"}}) {
    EXPECT_EQ(translateCompileCommand(In).MaxRegCount, 32u) << In[1];
    EXPECT_EQ(sanitizeCompileFlags(In, "/w").MaxRegisterCount, 32u) << In[1];
  }
}

TEST(CompileFlagsTest, NvccIsGivenWhatTheTableSaysWarpcheckSets) {
  // Every flag of nvcc's own command line (not the unit's flags, not the
  // values) is a row whose fate for nvcc is to be set by warpcheck; only the
  // register limit is the unit's, translated, and -o names the private
  // output (a database's -o never reaches nvcc: dropped).
  std::string Error;
  SanitizedFlags None;
  std::optional<Args> Nvcc =
      nvccArguments("/opt/cuda", "sm_90", None, 32u, "/t/u.cu", "/t/u.cubin", &Error, true);
  ASSERT_TRUE(Nvcc) << Error;
  unsigned Checked = 0;
  for (size_t I = 1; I + 1 < Nvcc->size(); ++I) {
    std::optional<MatchedFlag> M = matchCompileFlag(*Nvcc, I);
    ASSERT_TRUE(M) << (*Nvcc)[I];
    FlagFate Fate = fatesOf(M->Flag->Meaning).ForNvcc;
    if ((*Nvcc)[I] == "-o")
      EXPECT_EQ(Fate, FlagFate::Dropped);
    else if (M->Flag->Meaning == FlagMeaning::MaxRegCount)
      EXPECT_EQ(Fate, FlagFate::Translated);
    else
      EXPECT_EQ(Fate, FlagFate::SetByWarpcheck) << (*Nvcc)[I];
    I += M->ArgsUsed - 1;
    ++Checked;
  }
  // -cubin -arch -o -Xptxas -lineinfo --extended-lambda
  // --expt-relaxed-constexpr -allow-unsupported-compiler -maxrregcount -rdc
  // -x.
  EXPECT_EQ(Checked, 11u);
}

} // namespace
